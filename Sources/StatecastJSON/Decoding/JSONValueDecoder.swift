/// Decodes any `Decodable` from a ``JSON`` value, behaving like Foundation's
/// `JSONDecoder` with default settings.
///
/// Synthesized enums with associated values (`{"add":{"title":"Milk"}}`,
/// `{"increment":{}}`), unknown keys ignored, integers from numbers that are whole and
/// in range (`1.0` decodes as `Int`), doubles from integers, `URL`, `Data` (Base64) and
/// `Decimal` as `JSONDecoder` reads them. A `Date` is read from milliseconds since the
/// Unix epoch, mirroring ``JSONValueEncoder``. Errors are `DecodingError`s with the
/// coding path and a readable description, fit to show a client what it sent wrong.
///
/// ```swift
/// enum Action: Decodable { case add(title: String), increment }
/// let action = try JSONValueDecoder().decode(Action.self, from: ["add": ["title": "Milk"]])
/// ```
public struct JSONValueDecoder {
  /// Values handed to the types being decoded through `Decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  public init() {}

  /// Decodes a `T` from `json`.
  /// - Throws: `DecodingError` (`typeMismatch`, `keyNotFound`, `valueNotFound`,
  ///   `dataCorrupted`) with the coding path of the offending value.
  public func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws -> T {
    try ValueDecoder.decode(T.self, from: json, in: nil, at: nil, userInfo: userInfo)
  }

  /// Parses UTF-8 bytes strictly (see ``JSON/init(parsing:maxDepth:)-(Collection<UInt8>,_)``)
  /// and decodes a `T` from them.
  /// - Throws: `DecodingError.dataCorrupted` whose underlying error is the
  ///   ``JSONParsingError`` for malformed JSON, or the errors of ``decode(_:from:)-(_,JSON)``.
  public func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>, maxDepth: Int = 64)
    throws -> T
  {
    let json: JSON
    do {
      json = try JSON(parsing: bytes, maxDepth: maxDepth)
    } catch {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: [], debugDescription: "The given data was not valid JSON: \(error).",
          underlyingError: error))
    }
    return try decode(T.self, from: json)
  }
}
