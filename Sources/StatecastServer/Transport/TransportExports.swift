/// The server runs on the package's shared libwebsockets transport.
///
/// Re-exported so that every file of this module sees the transport's types without its
/// own import, and so that apps see the few of them that ``ServerConfiguration`` and
/// ``StatecastServer/start()`` expose (`TLSConfiguration`, `TransportError`). Everything
/// else in the transport has `package` access: visible to the package's targets and
/// tests, never to apps.
@_exported public import StatecastTransport
