import Testing

/// Three of the four suites that drive Chromium (the harness's, the web
/// client's and its layout's), one test at a time among them; the fourth
/// (between people, as long as the three together) runs beside them. A
/// browser is a dozen processes, and four suites' browsers at once (each
/// suite serialized on its own) took the machine's two cores from every
/// other test's daemon for tens of seconds.
@Suite(.serialized) enum InChromium {}
