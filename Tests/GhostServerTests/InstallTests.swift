import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `scripts/install.sh` into a temporary prefix, then the installed ghostd run
/// from another folder: it finds its word lists under PREFIX/share without
/// flags, says so in its log, and serves a game. The manual pages and
/// completion scripts are installed where man and the shells look.
@Suite("Install: scripts/install.sh and an installed ghostd", .ownThread, .hangLimit)
struct InstallTests {
    @Test("install.sh into a temporary prefix; the manual pages and completion are installed; the installed ghostd, started elsewhere without --dictionaries, finds PREFIX/share/ghostd/Dictionaries and plays a game")
    func installAndPlay() throws {
        let prefix = try DataDirectory()
        let elsewhere = try DataDirectory()
        let data = try DataDirectory()
        let bin = (try DaemonProcess.binaryPath() as NSString).deletingLastPathComponent

        let install = try runTool(DaemonProcess.packageRoot + "/scripts/install.sh", [prefix.path],
                                  environment: ["GHOSTD_BUILD_DIR": bin])
        #expect(install.status == 0, "\(install.output)")
        let share = prefix.path + "/share/ghostd/Dictionaries"
        for file in ["/bin/ghostd", "/bin/ghost-client"] {
            #expect(FileManager.default.isExecutableFile(atPath: prefix.path + file), "\(file)")
        }
        for file in ["en.txt", "nl.txt", "README.md", "phrases/en.txt", "phrases/nl.txt",
                     "common/en.txt", "common/nl.txt", "common/LICENSE-en.txt", "common/LICENSE-nl.txt"] {
            #expect(FileManager.default.fileExists(atPath: share + "/" + file), "\(file)")
        }

        // The manual pages and completion scripts, as committed in docs/.
        let installedDocs = [
            ("/share/man/man8/ghostd.8", "docs/man/ghostd.8"),
            ("/share/man/man1/ghost-client.1", "docs/man/ghost-client.1"),
            ("/share/bash-completion/completions/ghostd", "docs/completion/ghostd.bash"),
            ("/share/bash-completion/completions/ghost-client", "docs/completion/ghost-client.bash"),
            ("/share/zsh/site-functions/_ghostd", "docs/completion/ghostd.zsh"),
            ("/share/zsh/site-functions/_ghost-client", "docs/completion/ghost-client.zsh"),
        ]
        for (installed, source) in installedDocs {
            let got = try? String(contentsOfFile: prefix.path + installed, encoding: .utf8)
            let want = try String(contentsOfFile: DaemonProcess.packageRoot + "/" + source, encoding: .utf8)
            #expect(got == want, "PREFIX\(installed) is not \(source)")
        }
        // `man` finds the installed page by name through MANPATH.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let man = try runTool("/usr/bin/man", ["-w", "ghostd"], environment: ["MANPATH": prefix.path + "/share/man"])
            #expect(man.status == 0 && man.output == prefix.path + "/share/man/man8/ghostd.8\n", "man -w ghostd: \(man.output)")
        } else {
            print("install: man not found; the installed page was not looked up")
        }

        // contrib/ghostd.service, pointed at this prefix, passes `systemd-analyze verify`.
        let analyze = "/usr/bin/systemd-analyze"
        if FileManager.default.isExecutableFile(atPath: analyze) {
            let unit = try String(contentsOfFile: DaemonProcess.packageRoot + "/contrib/ghostd.service", encoding: .utf8)
            let copy = prefix.path + "/ghostd.service"
            try unit.replacingOccurrences(of: "/usr/local", with: prefix.path).write(toFile: copy, atomically: true, encoding: .utf8)
            let verify = try runTool(analyze, ["verify", copy])
            #expect(verify.status == 0 && verify.output.isEmpty, "systemd-analyze verify: \(verify.output)")
        } else {
            print("install: systemd-analyze not found; the unit file was not verified")
        }

        // From a folder without ./Dictionaries, and no --dictionaries.
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: prefix.path + "/bin/ghostd")
        daemon.arguments = ["--port", "0", "--data", data.path] + DaemonProcess.testDefaults([])
        daemon.currentDirectoryURL = URL(fileURLWithPath: elsewhere.path)
        let err = Pipe()
        daemon.standardError = err
        try daemon.run()
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        var log: [String] = []
        var port: Int?
        var pending = Data()
        let handle = err.fileHandleForReading
        while port == nil {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let nl = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<nl], as: UTF8.self)
                pending = Data(pending[(nl + 1)...])
                log.append(line)
                if let r = line.range(of: " listening on 127.0.0.1:") {
                    port = Int(line[r.upperBound...].prefix { $0.isNumber })
                }
            }
        }
        #expect(log.contains { $0.hasSuffix(" dictionaries: \(share)") }, "\(log)")
        // The lists of common words were installed and found (Hangman's computer sets from them).
        #expect(log.contains { $0.hasSuffix(" common words: en 40059, nl 41433") }, "\(log)")
        guard let port else {
            Issue.record("the installed ghostd did not start: \(log)")
            return
        }
        let a = Player(name: "ann", client: try LineClient(port: port, label: "ann"))
        let b = Player(name: "ben", client: try LineClient(port: port, label: "ben"))
        try a.client.login("ann")
        try b.client.login("ben")
        var game = try Game.privateGame(host: a, guest: b)
        try LimitsTests.finishPear(&game)
        kill(daemon.processIdentifier, SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test("Without ./Dictionaries or an installed share folder, ghostd says where it looked")
    func saysWhereItLooked() throws {
        let elsewhere = try DataDirectory()
        let data = try DataDirectory()
        let (status, text) = try runTool(try DaemonProcess.binaryPath(), ["--port", "0", "--data", data.path],
                                         directory: elsewhere.path)
        #expect(status == 1)
        #expect(text.contains("cannot read the dictionaries folder ./Dictionaries (looked in ./Dictionaries and "), "\(text)")
        #expect(text.contains("/share/ghostd/Dictionaries; see --dictionaries)"), "\(text)")
    }
}
