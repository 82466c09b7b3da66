import Testing

/// For a suite whose outcome does not depend on the store the tests'
/// daemons use: those of PostgreSQL itself (they start their own server and
/// choose `--store` themselves), and the pages a browser draws, a framing
/// client and TLS handshakes. The plain pass runs it; the PostgreSQL pass
/// (`GHOSTD_TEST_STORE=postgresql`, CI's third) skips it instead of running
/// it a second time to the same end.
public let storeIndependent = ConditionTrait.enabled(
    if: !DaemonProcess.onPostgres, "does not depend on the tests' store: the plain pass runs it")
