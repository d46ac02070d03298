/// A PEM certificate and private key that switch the transport's port to https and wss.
///
/// The same port then serves the pages over https and the WebSocket over wss, so a
/// deployment needs no proxy in front just to get TLS. The files are read once, when the
/// transport starts.
///
///     var configuration = TransportConfiguration()
///     configuration.tls = TLSConfiguration(certificatePath: "cert.pem", privateKeyPath: "key.pem")
public struct TLSConfiguration: Sendable, Equatable {
  /// Path of the PEM certificate (chain) the server presents.
  public var certificatePath: String
  /// Path of the PEM private key of that certificate.
  public var privateKeyPath: String

  public init(certificatePath: String, privateKeyPath: String) {
    self.certificatePath = certificatePath
    self.privateKeyPath = privateKeyPath
  }
}
