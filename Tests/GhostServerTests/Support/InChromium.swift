import Testing

/// The four suites that drive Chromium (the harness's, the web client's,
/// its layout's and between people), one test at a time among them, on a
/// thread of their own from the start of the run (`.serialOnOwnThread`). A
/// browser is a dozen processes, and four suites' browsers at once (each
/// suite serialized on its own) took the machine's two cores from every
/// other test's daemon for tens of seconds. Waiting for the pool's threads
/// instead, each test behind the queue of all the others, the chain started
/// late and ended the pass alone for its last 110 s.
@Suite(.serialized, .serialOnOwnThread) enum InChromium {}
