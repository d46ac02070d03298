internal import CLibWebSockets
import Foundation

/// Owns one libwebsockets server context and the C memory its vhost points into.
///
/// Created (and bound to its port) on the thread that calls `start()`, then run and
/// destroyed on the service thread. The protocols array has a single entry, the
/// `statecast.v1` WebSocket protocol at index 0: upgrades without a subprotocol bind to
/// index 0, and the `/healthz` mount and unmatched HTTP requests reach the same callback.
/// Handed to the service thread in a ``ServiceThreadBound``.
final class ServerContext {

  /// The `lws_context`; valid until `destroy()`.
  let context: OpaquePointer
  /// The TCP port the context listens on (the chosen one when 0 was asked for).
  let port: Int
  private let allocations: CAllocations
  /// What the context's user pointer points at; lives as long as the context.
  private let callbackTarget: CallbackTarget
  private var destroyed = false
  /// The epoll loop the context runs on, or `nil` for lws' own `poll()` loop.
  let eventLoop: EpollEventLoop?

  /// Extensions served with a type of our choosing: lws' built-in table lacks several of
  /// these (they would answer 415) and names `.js` differently in other versions.
  static let contentTypes: [(suffix: String, type: String)] = [
    (".html", "text/html"),
    (".js", "text/javascript"),
    (".mjs", "text/javascript"),
    (".css", "text/css"),
    (".svg", "image/svg+xml"),
    (".json", "application/json"),
    (".map", "application/json"),
    (".webmanifest", "application/manifest+json"),
    (".png", "image/png"),
    (".jpg", "image/jpeg"),
    (".webp", "image/webp"),
    (".ico", "image/x-icon"),
    (".txt", "text/plain"),
    (".wasm", "application/wasm"),
    (".woff2", "font/woff2"),
    (".pdf", "application/pdf"),
    ("*", "application/octet-stream"),
  ]

  /// Creates the context and starts listening. Calling thread (`start()`).
  ///
  /// - Parameters:
  ///   - configuration: a validated configuration.
  ///   - publicDirectory: the absolute public directory, if any.
  ///   - callbacks: receives every callback of the context (the transport, which owns
  ///     this context and outlives it).
  init(configuration: TransportConfiguration, publicDirectory: String?, callbacks: any LibWebSocketsCallbacks)
    throws
  {
    let allocations = CAllocations()
    let callbackTarget = CallbackTarget(callbacks)

    let protocols = allocations.zeroed(lws_protocols.self, count: 2)
    protocols[0].name = allocations.string(Endpoint.subprotocol)
    protocols[0].callback = statecastProtocolCallback
    protocols[0].per_session_data_size = MemoryLayout<statecast_session>.size
    // Each WebSocket keeps a receive buffer this large for as long as it is open; larger
    // messages arrive in parts (lws still reads the socket into its 16 KiB per-thread
    // buffer: a smaller receive buffer costs callbacks, not system calls). Left at 0, lws
    // would use `pt_serv_buf_size` (16 KiB here, for response headers): 16 KiB per idle
    // socket.
    protocols[0].rx_buffer_size = Self.receiveBufferSize
    // Sends stay cut at `pt_serv_buf_size`, as they were with no receive buffer size
    // (lws limits each send() to `tx_packet_size`, else to the receive buffer's size).
    protocols[0].tx_packet_size = Self.responseHeaderRoom

    // Mounts: `/healthz`, `/readyz`, `/metrics`, the POST routes and the embedded files
    // answered by the callback (a callback mount wins over the file mount), `/` served
    // from the public directory.
    var last: UnsafeMutablePointer<lws_http_mount>?
    var first: UnsafeMutablePointer<lws_http_mount>?
    let callbackPaths = ["/healthz", "/readyz", "/metrics"] + configuration.postRoutes.keys.sorted()
    // Rendered pages: a callback mount each, except `/`, which would take every path (the
    // file mount's default document is made one that does not exist instead, so that
    // lws hands `/` to the callback as it does any path without a file).
    let pagePaths =
      configuration.pageRoute == nil ? [] : configuration.pagePaths.filter { $0 != "/" }.sorted()
    for path in callbackPaths + configuration.embeddedFiles.map(\.path) + pagePaths {
      let mount = allocations.zeroed(lws_http_mount.self)
      mount.pointee.mountpoint = allocations.string(path)
      mount.pointee.mountpoint_len = UInt8(path.utf8.count)
      mount.pointee.origin = allocations.string(Endpoint.subprotocol)
      mount.pointee.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
      if let last { last.pointee.mount_next = UnsafePointer(mount) } else { first = mount }
      last = mount
    }
    let health = first!
    if let publicDirectory {
      let files = allocations.zeroed(lws_http_mount.self)
      files.pointee.mountpoint = allocations.string("/")
      files.pointee.mountpoint_len = 1
      files.pointee.origin = allocations.string(publicDirectory)
      let rendersIndex = configuration.pageRoute != nil && configuration.pagePaths.contains("/")
      files.pointee.def = allocations.string(rendersIndex ? Self.renderedIndexName : "index.html")
      files.pointee.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
      // Files carry an ETag (lws answers a matching `If-None-Match` with 304) and
      // `Cache-Control: must-revalidate, private, max-age=1`: browsers keep them and
      // revalidate once they are a second old (lws 4.1 cannot send `no-cache` or
      // `max-age=0` for a mount).
      files.pointee.cache_max_age = 1
      files.pointee.cache_reusable = 1
      files.pointee.cache_revalidate = 1
      files.pointee.extra_mimetypes = UnsafePointer(Self.mimeTypeList(allocations))
      last!.pointee.mount_next = UnsafePointer(files)
    }

    // No keep-alive timers in lws: the transport pings with a payload and closes idle
    // connections with 1001 itself, from one scan of its socket table
    // (`WebSocketTransport.checkLiveness`). lws 4.1 keeps every connection's validity timer
    // in one sorted list per thread and re-inserts it, walking that list, on every pong:
    // with 15,000 idle connections that walk took three quarters of a core. A policy
    // of zeros (not none: lws' default pings and hangs up at 300 s) schedules nothing.
    let idlePolicy = allocations.zeroed(lws_retry_bo_t.self)

    var info = lws_context_creation_info()
    info.port = Int32(configuration.port)
    if let iface = Self.interface(for: configuration.host) {
      info.iface = allocations.string(iface)
      if !iface.contains(":") { info.options |= statecast_option_disable_ipv6 }
    }
    info.protocols = UnsafePointer(protocols)
    info.mounts = UnsafePointer(health)
    info.retry_and_idle_policy = UnsafePointer(idlePolicy)
    // Headers lws adds to every response it builds (after the status line).
    var nextHeader: UnsafePointer<lws_protocol_vhost_options>?
    for header in configuration.responseHeaders.reversed() {
      let option = allocations.zeroed(lws_protocol_vhost_options.self)
      option.pointee.name = allocations.string(header.name.lowercased() + ":")
      option.pointee.value = allocations.string(header.value)
      option.pointee.next = nextHeader
      nextHeader = UnsafePointer(option)
    }
    info.headers = nextHeader
    info.server_string = allocations.string(configuration.serverName)
    info.user = callbackTarget.opaque
    info.options |= statecast_option_validate_utf8 | statecast_option_fallback_to_raw
    // Room for twice the header limit, so that a request over the limit is still parsed
    // and answered 431 instead of being dropped without a status.
    info.max_http_header_data2 = UInt32(configuration.maxRequestHeaderSize * 2)
    info.pt_serv_buf_size = UInt32(Self.responseHeaderRoom)
    if let tls = configuration.tls {
      info.options |= statecast_option_ssl_global_init
      info.ssl_cert_filepath = allocations.string(tls.certificatePath)
      info.ssl_private_key_filepath = allocations.string(tls.privateKeyPath)
      // lws would otherwise offer HTTP/2, where WebSockets need one write per event.
      info.alpn = allocations.string("http/1.1")
    }

    var eventLoop = EpollEventLoop.make()
    var created: OpaquePointer?
    if let loop = eventLoop {
      var withLoop = info
      let foreignLoops = allocations.zeroed(UnsafeMutableRawPointer?.self)
      foreignLoops.pointee = UnsafeMutableRawPointer(loop.loop)
      withLoop.options |= UInt64(LWS_SERVER_OPTION_LIBEV)
      withLoop.foreign_loops = foreignLoops
      created = lws_create_context(&withLoop)
      if created == nil {
        loop.destroy()
        eventLoop = nil
      }
    }
    if created == nil { created = lws_create_context(&info) }
    guard let context = created else {
      throw TransportError.cannotListen(host: configuration.host, port: configuration.port)
    }
    let vhost = lws_get_vhost_by_name(context, "default")
    let port = vhost.map { Int(lws_get_vhost_listen_port($0)) } ?? configuration.port
    guard port > 0 else {
      lws_context_destroy(context)
      eventLoop?.destroy()
      throw TransportError.cannotListen(host: configuration.host, port: configuration.port)
    }
    self.context = context
    self.port = port
    self.allocations = allocations
    self.callbackTarget = callbackTarget
    self.eventLoop = eventLoop
    eventLoop?.startTick(every: Self.tickSeconds, data: UnsafeMutableRawPointer(context)) { _, timer, _ in
      // Service thread: a wake-up through lws' own pipe makes it run its due timers.
      guard let context = timer?.load(fromByteOffset: 16, as: OpaquePointer?.self) else { return }
      lws_cancel_service(context)
    }
  }

  /// The file mount's default document while `/` is a rendered page: a name no public
  /// file has (it cannot be requested: the public directory refuses dotfiles).
  static let renderedIndexName = ".statecast-rendered-index"

  /// Bytes of response headers lws can write per response (its per-thread buffer,
  /// 4 KiB by default): a content security policy with many script hashes is longer.
  static let responseHeaderRoom = 16_384

  /// The receive buffer of each WebSocket (see `rx_buffer_size`): most client messages
  /// (an action, a presence update) fit in one; a join's parameters or an upload's
  /// chunk arrive in parts, assembled by the transport.
  static let receiveBufferSize = 1_024

  /// How often lws' timers are checked on the epoll loop (see ``EpollEventLoop/startTick``).
  static let tickSeconds = 0.25

  /// Runs one iteration of the event loop: waits for network events, timers, or a
  /// `lws_cancel_service` wake-up, and runs the callbacks they cause. Service thread.
  func serviceOnce() -> Int32 {
    if let eventLoop {
      eventLoop.runOnce()
      return 0
    }
    return lws_service(context, 0)
  }

  /// Destroys the context: every remaining connection is closed (their `CLOSED`
  /// callbacks run now). Service thread, after its loop has ended.
  func destroy() {
    guard !destroyed else { return }
    destroyed = true
    eventLoop?.stopTick()
    lws_context_destroy(context)
    eventLoop?.destroy()
  }

  deinit {
    destroy()
  }

  /// The interface lws should bind, or `nil` for all interfaces.
  private static func interface(for host: String) -> String? {
    switch host {
    case "", "0.0.0.0", "::", "*": nil
    case "localhost": "127.0.0.1"
    default: host
    }
  }

  /// The `extra_mimetypes` linked list, consulted by lws before its own table.
  private static func mimeTypeList(_ allocations: CAllocations) -> UnsafeMutablePointer<
    lws_protocol_vhost_options
  > {
    let list = allocations.zeroed(lws_protocol_vhost_options.self, count: contentTypes.count)
    for (index, entry) in contentTypes.enumerated() {
      list[index].name = allocations.string(entry.suffix)
      list[index].value = allocations.string(entry.type)
      if index + 1 < contentTypes.count { list[index].next = UnsafePointer(list + index + 1) }
    }
    return list
  }
}
