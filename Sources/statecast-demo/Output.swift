import Foundation

/// Writes a line to standard output at once (unbuffered), so that scripts waiting for
/// "listening on" see it as soon as the server accepts connections.
func say(_ line: String) {
  writeLine(line, to: STDOUT_FILENO)
}

/// Writes `line` and a newline with one `write(2)` (more only if the kernel takes part
/// of it). A closed pipe or a full disk loses the line rather than stopping the server.
func writeLine(_ line: String, to descriptor: Int32) {
  var text = line + "\n"
  text.withUTF8 { bytes in
    var rest = UnsafeRawBufferPointer(bytes)
    while !rest.isEmpty {
      let written = write(descriptor, rest.baseAddress, rest.count)
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      rest = UnsafeRawBufferPointer(rebasing: rest[written...])
    }
  }
}
