extension TopicRegistry {
  /// What `topic` accepts as uploads from `session`, which must have joined it.
  func uploads(on topic: String, of session: String) throws(ProtocolError) -> TopicUploads {
    guard let host = host(topic, of: session) else {
      throw ProtocolError(.notJoined, "not joined to \(topic)")
    }
    guard let uploads = host.uploads else {
      throw ProtocolError(.forbidden, "\(topic) takes no uploads")
    }
    return uploads
  }
}
