#if canImport(Glibc)
import Glibc
#endif

/// One ghostd per data folder: an exclusive `flock` on `<data>/ghostd.pid`,
/// which holds the PID of the daemon that has it (as PostgreSQL's
/// postmaster.pid and Redis's pidfile). The lock is the kernel's: it is
/// released when the process ends, however it ends, so a file left by a
/// daemon that is gone (a stale pidfile) is simply taken over. The file is
/// never removed: removing it would let a daemon that opened it just before
/// lock an unlinked file while a third one locks a new one.
public final class DataFolderLock {
    public static let fileName = "ghostd.pid"

    /// Why the lock could not be taken.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Another process holds it: its PID as the file says (nil if it has
        /// not written it yet, or the file does not hold one).
        case inUse(folder: String, pid: Int?)
        /// The file could not be opened, locked or written.
        case cannotLock(path: String, reason: String)

        public var description: String {
            switch self {
            case .inUse(let folder, let pid?):
                return "the data folder \(folder) is in use by another ghostd (pid \(pid)); stop it first"
            case .inUse(let folder, nil):
                return "the data folder \(folder) is in use by another ghostd; stop it first"
            case .cannotLock(let path, let reason):
                return "cannot lock \(path): \(reason)"
            }
        }
    }

    /// The pidfile's path.
    public let path: String
    private var fd: Int32

    /// Creates `directory` if needed, then takes the lock without waiting and
    /// writes this process's PID into the file. Keep the value alive for as
    /// long as the folder must stay this process's.
    public init(directory: String) throws {
        try DatabaseFile.makeDirectories(directory)
        let folder = directory.isEmpty ? "." : directory
        path = folder.hasSuffix("/") ? folder + DataFolderLock.fileName : folder + "/" + DataFolderLock.fileName
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure.cannotLock(path: path, reason: String(cString: strerror(errno))) }
        var rc: Int32
        repeat { rc = flock(fd, LOCK_EX | LOCK_NB) } while rc != 0 && errno == EINTR
        if rc != 0 {
            let err = errno
            if err == EWOULDBLOCK || err == EAGAIN {
                let holder = DataFolderLock.readPID(fd)
                close(fd)
                throw Failure.inUse(folder: folder, pid: holder)
            }
            close(fd)
            throw Failure.cannotLock(path: path, reason: String(cString: strerror(err)))
        }
        let text = Array("\(getpid())\n".utf8)
        let written = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == text.count, ftruncate(fd, off_t(text.count)) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure.cannotLock(path: path, reason: reason)
        }
    }

    deinit { unlock() }

    /// Gives the folder up (the process's end does the same).
    public func unlock() {
        guard fd >= 0 else { return }
        // Released explicitly: a close alone leaves the lock held while any
        // copy of the descriptor lives, and a child forked by another thread
        // holds one until its exec (a test's in-process `ghostd accounts`
        // found its own folder still "in use" by its own PID).
        _ = flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    /// The PID the holder wrote. It writes it right after taking the lock,
    /// so an empty file is read again for up to about 0.5 s.
    private static func readPID(_ fd: Int32) -> Int? {
        for attempt in 0..<50 {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                let digits = buffer[0..<n].prefix { $0 >= 0x30 && $0 <= 0x39 }
                if let pid = Int(String(decoding: digits, as: UTF8.self)), pid > 0 { return pid }
            }
            if attempt < 49 { usleep(10_000) }
        }
        return nil
    }
}
