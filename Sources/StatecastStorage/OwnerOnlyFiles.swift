import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files and folders only the server's own user may read or change: the data directory
/// (mode 0700), the database and the cookie secret (mode 0600).
///
/// Why it exists: the data directory holds session ids, drafts and the key that signs
/// every sign-in. A folder left at 0755 lets any local account read them; a secret file
/// planted by another account (in a shared `/tmp`, or through a symlink) would let it
/// forge any identity. Files are created with `O_EXCL|O_NOFOLLOW` and their final mode
/// from the first byte, and an existing one is trusted only when this user owns it and
/// nobody else can write it.
///
///     try OwnerOnlyFiles.prepareDirectory(data.path)          // mkdir 0700, or tighten to 0700
///     if try !OwnerOnlyFiles.create(secretPath, contents: key) { key = try OwnerOnlyFiles.read(secretPath) }
package enum OwnerOnlyFiles {
  /// Why a file or folder was not used.
  package struct Refusal: Error, CustomStringConvertible {
    package let path: String
    package let reason: String
    package var description: String { "\(path): \(reason)" }

    package init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }
  }

  /// Creates `path` (and missing parents) as a folder of mode 0700, or checks an existing
  /// one: it must be a folder owned by this user, and its mode is tightened to 0700.
  package static func prepareDirectory(_ path: String) throws {
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path, !FileManager.default.fileExists(atPath: parent) {
      do {
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
      } catch {
        throw Refusal(path: parent, reason: "cannot create: \(error.localizedDescription)")
      }
    }
    if mkdir(path, 0o700) != 0 && errno != EEXIST {
      throw Refusal(path: path, reason: "cannot create: \(String(cString: strerror(errno)))")
    }
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw Refusal(path: path, reason: String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFDIR else { throw Refusal(path: path, reason: "not a directory") }
    guard status.st_uid == geteuid() else {
      throw Refusal(
        path: path, reason: "owned by another user (uid \(status.st_uid)): use a directory of your own")
    }
    if status.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
      throw Refusal(path: path, reason: "cannot restrict to mode 0700: \(String(cString: strerror(errno)))")
    }
  }

  /// Creates `path` holding `contents`, with mode 0600 from the start; `false` (and
  /// nothing written) when something, even a dangling symlink, already has that name.
  package static func create(_ path: String, contents: [UInt8]) throws -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    if descriptor < 0 {
      if errno == EEXIST { return false }
      throw Refusal(path: path, reason: "cannot create: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var written = 0
    while written < contents.count {
      let count = contents[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Refusal(path: path, reason: "cannot write: \(String(cString: strerror(errno)))")
      }
      written += count
    }
    guard fsync(descriptor) == 0 else {
      throw Refusal(path: path, reason: "cannot write: \(String(cString: strerror(errno)))")
    }
    return true
  }

  /// The bytes of `path`, a regular file (not a symlink) owned by this user that no
  /// other user can write; anything else is refused rather than trusted.
  package static func read(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw Refusal(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw Refusal(path: path, reason: String(cString: strerror(errno)))
    }
    try checkOwned(status, path: path)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Refusal(path: path, reason: "cannot read: \(String(cString: strerror(errno)))")
      }
      if count == 0 { return bytes }
      bytes += buffer[..<count]
    }
  }

  /// Creates `path` empty with mode 0600 if it does not exist, or checks an existing one
  /// as ``read(_:)`` does and tightens its mode to 0600 (a database created by an earlier
  /// version at 0644). SQLite gives its `-wal` and `-shm` files the database's mode.
  package static func prepareFile(_ path: String) throws {
    if try create(path, contents: []) { return }
    var status = stat()
    guard lstat(path, &status) == 0 else {
      throw Refusal(path: path, reason: String(cString: strerror(errno)))
    }
    try checkOwned(status, path: path)
    if status.st_mode & 0o077 != 0, chmod(path, 0o600) != 0 {
      throw Refusal(path: path, reason: "cannot restrict to mode 0600: \(String(cString: strerror(errno)))")
    }
  }

  private static func checkOwned(_ status: stat, path: String) throws {
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw Refusal(path: path, reason: "not a regular file")
    }
    guard status.st_uid == geteuid() else {
      throw Refusal(path: path, reason: "owned by another user (uid \(status.st_uid)): not trusted")
    }
    guard status.st_mode & 0o022 == 0 else {
      throw Refusal(
        path: path,
        reason: "writable by other users (mode \(String(status.st_mode & 0o777, radix: 8))): not trusted")
    }
  }
}
