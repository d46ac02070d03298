import Foundation

/// The sentence a page shows for an error an effect caught.
///
/// The examples' own errors are `LocalizedError`s whose description is written for a
/// person; Foundation's errors (a file that cannot be written) describe themselves the
/// same way.
func describe(_ error: any Error) -> String {
  error.localizedDescription
}
