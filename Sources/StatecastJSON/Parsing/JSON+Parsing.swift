extension JSON {
  /// Parses one JSON text (RFC 8259) from UTF-8 bytes, strictly.
  ///
  /// Rejects what the RFC rejects: trailing garbage, leading zeros, unescaped control
  /// characters, lone surrogates in `\u` escapes, invalid UTF-8, a byte order mark,
  /// comments, trailing commas, `NaN`. Arrays and objects may nest `maxDepth` deep, so
  /// hostile input cannot exhaust the stack. Integers that fit `Int64` stay exact
  /// (`-0` is the double `-0.0`); other numbers become doubles, and a number too large
  /// for a double is an error. A repeated object key keeps its first position and its
  /// last value, as JavaScript's `JSON.parse` does.
  ///
  /// ```swift
  /// let action = try JSON(parsing: frameBytes, maxDepth: 32)
  /// ```
  /// - Throws: ``JSONParsingError`` with the byte offset of the problem.
  public init(parsing bytes: some Collection<UInt8>, maxDepth: Int = 64) throws(JSONParsingError) {
    let parsed = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(JSONParsingError) -> JSON in
        var parser = JSONParser(buffer, maxDepth: maxDepth)
        return try parser.parseDocument()
      }
    }
    if let parsed {
      self = try parsed.get()
    } else {
      let copy = Array(bytes)
      self = try copy.withUnsafeBufferPointer { buffer throws(JSONParsingError) in
        var parser = JSONParser(buffer, maxDepth: maxDepth)
        return try parser.parseDocument()
      }
    }
  }

  /// Parses one JSON text from a string (see ``init(parsing:maxDepth:)-(Collection<UInt8>,_)``).
  public init(parsing text: String, maxDepth: Int = 64) throws(JSONParsingError) {
    try self.init(parsing: Array(text.utf8), maxDepth: maxDepth)
  }
}
