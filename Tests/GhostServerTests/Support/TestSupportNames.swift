import TestSupport

/// Swift Testing has an `ExitStatus` of its own (exit tests): in this
/// module the name means the daemon's, from TestSupport.
typealias ExitStatus = TestSupport.ExitStatus
