/// Encodes any `Encodable` straight into a ``JSON`` value, with no round trip through
/// `Data` and `JSONSerialization`.
///
/// Produces the same JSON as Foundation's `JSONEncoder` with default settings (`nil`
/// optionals omitted by synthesized code, nested and super encoders, dictionaries with
/// `String` and `Int` keys, `URL` as its absolute string, `Decimal` and `Data` as
/// `JSONEncoder` writes them) with one deliberate difference: a `Date` is written as
/// **milliseconds since the Unix epoch**, the number a browser's `new Date(ms)` takes.
/// Non-finite doubles are an error, never `NaN` on the wire, and so are unsigned
/// integers above `Int64.max`, which JSON's exact integers here cannot hold.
///
/// ```swift
/// struct Todo: Encodable { var id: Int; var title: String; var due: Date? }
/// let json = try JSONValueEncoder().encode(Todo(id: 1, title: "Milk", due: nil))
/// // {"id":1,"title":"Milk"}
/// ```
///
/// To encode the same view again and again cheaply, use ``JSONViewTracker``, which
/// reuses the JSON of parts that did not change.
public struct JSONValueEncoder {
  /// Values handed to the types being encoded through `Encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  public init() {}

  /// The JSON form of `value`.
  /// - Throws: `EncodingError.invalidValue` for a non-finite number, an unsigned
  ///   integer above `Int64.max`, or a top-level value that encodes nothing.
  public func encode(_ value: some Encodable) throws -> JSON {
    let context = EncodingContext(userInfo: userInfo, isTracking: false)
    return try ValueEncoder.encodeTopLevel(value, context: context, cache: nil).json
  }
}
