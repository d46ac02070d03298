package import Foundation
package import StatecastJSON

/// Stored JSON is UTF-8 text (a BLOB in SQLite, `text` in PostgreSQL); parsing allows
/// deep documents, since a state nests as deeply as its types do.
extension JSON {
  package var storedData: Data { Data(serialized()) }

  package init(storedData data: Data) throws {
    self = try JSON(parsing: data, maxDepth: 512)
  }
}

extension Duration {
  /// The duration in seconds, for comparisons with stored times.
  package var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
