extension JSON {
  /// The compact UTF-8 JSON text of this value (RFC 8259): no whitespace, `"`, `\` and
  /// control characters escaped, everything else written as UTF-8.
  ///
  /// Doubles are written in their shortest round-tripping form, without a trailing `.0`
  /// (`2.0` becomes `2`, like `JSONEncoder`); a non-finite double, which only a
  /// hand-built value can hold, is written as `null`.
  public func serialized() -> [UInt8] {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(128)
    serialize(into: &buffer)
    return buffer
  }

  /// Appends the compact UTF-8 JSON text of this value to `buffer`, so a caller can
  /// build a whole frame (`{"op":"patch",...,"ops":` + patch + `}`) in one array.
  public func serialize(into buffer: inout [UInt8]) {
    JSONWriter.write(self, into: &buffer)
  }
}
