// libFuzzer entry point over the framer, the command parser and the
// server-line decoder, and the web port's request reader, routes and
// WebSocket decoder: every byte string a client (or a server) could send.
// Built only by scripts/fuzz.sh, with -sanitize=fuzzer (libFuzzer ships with
// the Swift toolchain on Linux); a normal build compiles it as a plain
// executable that runs the seed corpus once.
import GhostProtocol
import GhostWeb
#if canImport(Glibc)
import Glibc
#endif

/// Feeds the bytes to a framer in two pieces (split at the first byte's
/// value), parses every framed line, and renders an ERR for every failure,
/// as the server would; decodes every line as a server line, as a client
/// would, and checks that a decoded line renders and decodes to itself.
/// Traps are the bugs this looks for.
func fuzzOne(_ bytes: UnsafeRawBufferPointer) {
    var framer = LineFramer()
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var lines = 0
    var wire: [UInt8] = []
    let handle: (LineFramer.Frame) -> Void = { frame in
        lines += 1
        wire.removeAll(keepingCapacity: true)
        switch frame {
        case .tooLong:
            ServerLine.error(.lineTooLong, "too long").appendWire(to: &wire)
        case .line(let line):
            switch CommandParser.parse(line) {
            case .success(let command?):
                // A parsed command renders to a line that parses back to it.
                precondition(CommandParser.parse(Array(command.rendered.utf8)) == .success(command), "command round trip")
                if case .name(let n) = command { ServerLine.ok("NAME", ("name", n)).appendWire(to: &wire) }
            case .success(nil):
                break
            case .failure(let e):
                ServerLine.error(e.code, e.message).appendWire(to: &wire)
            }
            // Whatever arrives must never break the client-side decoder either,
            // and what it decodes is a line the server could send.
            let text = String(decoding: line, as: UTF8.self)
            _ = Message.parse(text)
            if let decoded = ServerLine.decode(text) {
                let again = ServerLine.decode(decoded.rendered)
                precondition(again != nil, "a decoded line no longer decodes once rendered")
            }
        }
    }
    framer.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<split]), handle)
    framer.feed(UnsafeRawBufferPointer(rebasing: bytes[split...]), handle)
    precondition(framer.pendingBytes <= LineFramer.defaultMaxLineBytes, "framer holds more than a line")
    fuzzWeb(bytes, split: split)
}

/// The same bytes as a web request's head (in the same two pieces), routed
/// if whole, and as a client's WebSocket frames: every line the decoder
/// gives is valid UTF-8 with no CR or LF, at most a line's 512 bytes (the
/// framer then refuses one of 512 without its end, as on TCP), and it never
/// holds more than a frame's header and a line.
func fuzzWeb(_ bytes: UnsafeRawBufferPointer, split: Int) {
    var reader = WebRequestReader(maxBytes: 8192, maxFields: 64)
    for piece in [bytes[0..<split], bytes[split...]] {
        switch reader.feed(UnsafeRawBufferPointer(rebasing: piece)) {
        case .more: continue
        case .head(let head, _):
            _ = WebRoutes.decide(head, secure: split % 2 == 0, origins: ["https://play.example.org"])
        case .failure: break
        }
        break
    }
    precondition(reader.count <= 8192 + 4 + bytes.count, "the reader holds more than it was given")
    var decoder = WebSocketDecoder(maxMessageBytes: LineFramer.defaultMaxLineBytes)
    let check: (WebSocketDecoder.Event) -> Void = { event in
        guard case .line(let line) = event else { return }
        precondition(line.count <= LineFramer.defaultMaxLineBytes, "a line over the message limit")
        precondition(!line.contains(0x0A) && !line.contains(0x0D), "a line end inside a message")
        precondition(String(validating: line, as: UTF8.self) != nil, "a message that is not UTF-8")
    }
    decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<split]), check)
    decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[split...]), check)
    precondition(decoder.pendingBytes <= 14 + LineFramer.defaultMaxLineBytes, "the decoder holds more than a frame")
}

#if GHOST_FUZZ
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzOne(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

/// libFuzzer's driver; SwiftPM owns `main`, so the fuzzer is started from it.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@main
struct Fuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = runFuzzerDriver(&argc, &argv) { data, size in
            fuzzOne(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
            return 0
        }
        exit(status)
    }
}
#else
@main
struct FuzzSeeds {
    static func main() {
        let seeds: [[UInt8]] = [
            Array("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".utf8),
            [0x81, 0x84, 1, 2, 3, 4, 0x51, 0x4B, 0x4D, 0x43, 0x01, 0x80, 0, 0, 0, 0, 0x80, 0x80, 1, 1, 1, 1],
            Array("NAME alice\r\nSEEK\r\np\r\n".utf8), [0xFF, 0xFE, 0x0A], [0, 0x1B, 0x5B, 0x0A],
            Array(repeating: 0x41, count: 2000) + [0x0A], Array("LETTER ab\nSCORES 5 mode=match bot=hard\n".utf8),
            Array("GAME id=1 game=ghost lang=en players=a,b token=ff round=1 rounds=ghost ghost=,G\nOK NEW bot=easy lang=en\n".utf8),
        ]
        for s in seeds { s.withUnsafeBytes { fuzzOne($0) } }
        print("ghost-fuzz: \(seeds.count) seeds ran; build with scripts/fuzz.sh to fuzz")
    }
}
#endif
