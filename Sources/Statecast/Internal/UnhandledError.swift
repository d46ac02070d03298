import Foundation

/// The store's default `onError`: writes the error to standard error, so that a failing
/// effect is visible in the server's log without stopping the store.
@usableFromInline
func writeUnhandledError(_ error: any Error) {
  FileHandle.standardError.write(Data("statecast: unhandled effect error: \(error)\n".utf8))
}
