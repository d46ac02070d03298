import Foundation
import StatecastJSON

/// Stored JSON is UTF-8 text in a BLOB; parsing allows deep documents, since a state
/// nests as deeply as its types do.
extension JSON {
  var storedData: Data { Data(serialized()) }

  init(storedData data: Data) throws {
    self = try JSON(parsing: data, maxDepth: 512)
  }
}

extension Duration {
  /// The duration in seconds, for comparisons with stored times.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
