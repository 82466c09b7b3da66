import Testing
@testable import GhostProtocol

private func parsed(_ s: String) -> Result<Command?, CommandError> { CommandParser.parse(Array(s.utf8)) }

private func command(_ s: String) -> Command? {
    if case .success(let c) = parsed(s) { return c }
    return nil
}

private func failure(_ s: String) -> CommandError? {
    if case .failure(let e) = parsed(s) { return e }
    return nil
}

/// REGISTER, NAME <name> <password> and PASSWORD: the password is
/// the rest of the line after the one space that follows the verb or the name.
@Suite struct PasswordCommandTests {
    @Test("The password is the rest of the line: spaces inside and at either end are part of it")
    func restOfTheLine() {
        #expect(command("REGISTER correct horse") == .register(Password("correct horse")))
        #expect(command("register  two leading ") == .register(Password(" two leading ")))
        #expect(command("PASSWORD   spaced out   ") == .password(Password("  spaced out   ")))
        #expect(command("NAME ann secret password") == .login(name: "ann", password: Password("secret password")))
        #expect(command("name Ann  lead and trail ") == .login(name: "Ann", password: Password(" lead and trail ")))
        // Spaces before the name are skipped, as before; one space after it is the separator.
        #expect(command("NAME   ann 12345678") == .login(name: "ann", password: Password("12345678")))
        // Nothing after the space: no password (a plain NAME, as before).
        #expect(command("NAME ann ") == .name("ann"))
        #expect(command("NAME ann") == .name("ann"))
        // Anything a password may hold, = and words that look like options included.
        #expect(command("REGISTER rounds=ghost x=y") == .register(Password("rounds=ghost x=y")))
        #expect(command("REGISTER wachtwoord€é中") == .register(Password("wachtwoord€é中")))
    }

    @Test("8 to 200 characters (Unicode scalars), no tab: ERR bad-password-form; nothing at all: bad-arguments")
    func form() {
        #expect(command("REGISTER 12345678") == .register(Password("12345678")))
        #expect(failure("REGISTER 1234567") == CommandError(.badPasswordForm, "password: 8 to 200 characters"))
        #expect(failure("NAME ann 1234567")?.code == .badPasswordForm)
        #expect(failure("PASSWORD        ")?.code == .badPasswordForm)   // 7 spaces
        #expect(command("PASSWORD         ") == .password(Password("        ")))   // 8 spaces
        let long = String(repeating: "é", count: 200)
        #expect(command("REGISTER " + long) == .register(Password(long)))
        #expect(failure("REGISTER " + long + "x")?.code == .badPasswordForm)
        #expect(failure("REGISTER tab\tinside it")?.code == .badPasswordForm)
        #expect(failure("REGISTER")?.code == .badArguments)
        #expect(failure("REGISTER ")?.code == .badArguments)
        #expect(failure("PASSWORD")?.code == .badArguments)
        // The name is checked first.
        #expect(failure("NAME bot!x secretpassword")?.code == .badName)
        // Control characters are refused before the verb is looked at.
        #expect(failure("REGISTER abc\u{1B}defghij")?.code == .badCharacter)
    }

    @Test("Rendered, a command is its wire form and parses back the same")
    func roundTrip() {
        for c in [Command.register(Password(" a b c d e ")), .password(Password("new password ")),
                  .login(name: "ann", password: Password("  x y z  w"))] {
            #expect(command(c.rendered) == c, "\(c.rendered)")
        }
        #expect(Command.login(name: "ann", password: Password("secret password")).rendered == "NAME ann secret password")
    }

    @Test("A password never prints: description, debugDescription, interpolation, dump")
    func neverPrinted() {
        let secret = "hunter2 hunter2"
        for c in [Command.register(Password(secret)), .password(Password(secret)), .login(name: "ann", password: Password(secret))] {
            var dumped = ""
            dump(c, to: &dumped)
            for text in ["\(c)", String(describing: c), String(reflecting: c), dumped, "\([c])"] {
                #expect(!text.contains("hunter2"), "\(text)")
                #expect(text.contains("<password>"), "\(text)")
            }
        }
    }

    @Test("OK NAME … registered=yes: written with the field, read by a client that ignores it as the plain OK NAME")
    func loggedInReply() {
        let line = ServerLine.ok(.loggedIn(name: "ann", lang: "nl"))
        #expect(line.rendered == "OK NAME name=ann lang=nl registered=yes")
        #expect(ServerLine(decoding: line.rendered) == .ok(.name(name: "ann", lang: "nl")))
        #expect(ServerLine.ok(.registered(name: "ann")).rendered == "OK REGISTER name=ann")
        #expect(ServerLine.ok(.passwordChanged).rendered == "OK PASSWORD")
    }
}
