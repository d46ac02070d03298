internal import COpenSSL

/// An incremental SHA-256 over OpenSSL's EVP interface (the server already links
/// libcrypto for TLS and signed cookies): an upload is hashed chunk by chunk as it is
/// written, so its digest is ready with its last byte.
///
/// Not thread-safe: one upload's writer task owns it.
final class SHA256Digest {
  private let context: OpaquePointer

  init() {
    context = EVP_MD_CTX_new()!
    _ = EVP_DigestInit_ex(context, EVP_sha256(), nil)
  }

  deinit {
    EVP_MD_CTX_free(context)
  }

  func update(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBytes { buffer in
      _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
    }
  }

  /// The digest as 64 lowercase hex digits; the digest cannot be updated afterwards.
  func finish() -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    _ = EVP_DigestFinal_ex(context, &digest, &length)
    return UploadChunk.hex(digest)
  }
}
