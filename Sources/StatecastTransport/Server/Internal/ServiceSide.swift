/// The transport's state that only the service thread touches: the `wsi` of each
/// connection, the message each is receiving, and the handler.
///
/// Why a separate object with no lock: libwebsockets calls back on the service thread
/// only, so confining this state there makes every access race-free without locking on
/// the receive path. Indexed by the connection's slot number. The transport holds it in
/// a ``ServiceThreadBound``, which checks every access.
final class ServiceSide {

  /// Told about `/ws` connections; dropped once the context is destroyed, which breaks
  /// the transport-handler reference cycle.
  var handler: (any TransportHandler)?
  /// Each open connection's id and `wsi`, by slot; `nil` when the slot is free.
  var sockets: [(id: ConnectionID, wsi: OpaquePointer)?] = []
  /// The message each connection is receiving, by slot.
  var inbound: [InboundMessage] = []
  /// Reused buffer for the connections to wake after `lws_cancel_service`.
  var wakes: [ConnectionTable.Wake] = []
  /// The frames a `SERVER_WRITEABLE` gathers into one `send()`, reused.
  var batch = FrameBatch()
  /// Set while the context is being destroyed: no connection is woken any more.
  var destroying = false
  /// Whether new WebSocket upgrades are accepted (a draining shutdown refuses them).
  var listening = true
  /// The identity the upgrade check gave the upgrade being handled, and the headers to
  /// add to its `101`, until that upgrade is established (lws confirms, filters, answers
  /// and establishes an upgrade in one go).
  var pendingIdentity: (wsi: OpaquePointer, identity: (any Sendable)?, responseHeaders: [String])?
  /// When each open connection last showed it is alive (its upgrade, a message, a pong
  /// to the transport's ping) and was last pinged, by slot, whether a ping is waiting
  /// to be written, and whether it is already being closed for idleness.
  var liveness: [Liveness] = []
  /// When the idle timeouts were last checked.
  var lastIdleCheck = ContinuousClock.now
  /// Each open connection's peer address, by slot, and how many are open per address.
  var addresses: [String?] = []
  var openPerAddress: [String: Int] = [:]
  /// Refuses accepted sockets that would leave too few descriptors for the process.
  var descriptorGuard = DescriptorGuard(limit: 1_024)

  private let serviceThread: ServiceThread

  init(handler: any TransportHandler, serviceThread: ServiceThread) {
    self.handler = handler
    self.serviceThread = serviceThread
  }

  /// Records a newly established connection. Service thread.
  func register(_ id: ConnectionID, wsi: OpaquePointer) {
    serviceThread.check()
    let slot = Int(id.slot)
    if slot >= sockets.count {
      sockets.append(contentsOf: repeatElement(nil, count: slot + 1 - sockets.count))
      inbound.append(contentsOf: repeatElement(InboundMessage(), count: slot + 1 - inbound.count))
    }
    sockets[slot] = (id, wsi)
    inbound[slot] = InboundMessage()
    if slot >= liveness.count {
      liveness.append(contentsOf: repeatElement(Liveness(), count: slot + 1 - liveness.count))
    }
    liveness[slot] = Liveness()
  }

  /// Records that `id` showed it is alive. Service thread.
  func heard(_ id: ConnectionID) {
    let slot = Int(id.slot)
    guard slot < liveness.count, slot < sockets.count, sockets[slot]?.id == id else { return }
    liveness[slot].heard = ContinuousClock.now
  }

  /// Counts an open connection from `address`. Service thread.
  func opened(_ id: ConnectionID, from address: String) {
    let slot = Int(id.slot)
    if slot >= addresses.count {
      addresses.append(contentsOf: repeatElement(nil, count: slot + 1 - addresses.count))
    }
    addresses[slot] = address
    openPerAddress[address, default: 0] += 1
  }

  /// Forgets a closed connection. Service thread.
  func unregister(_ id: ConnectionID) {
    serviceThread.check()
    let slot = Int(id.slot)
    guard slot < sockets.count, sockets[slot]?.id == id else { return }
    if slot < addresses.count, let address = addresses[slot] {
      addresses[slot] = nil
      let left = (openPerAddress[address] ?? 1) - 1
      openPerAddress[address] = left > 0 ? left : nil
    }
    sockets[slot] = nil
    inbound[slot] = InboundMessage()
  }

  /// The `wsi` of `id` if it is still open. Service thread.
  func wsi(of id: ConnectionID) -> OpaquePointer? {
    serviceThread.check()
    let slot = Int(id.slot)
    guard slot < sockets.count, let entry = sockets[slot], entry.id == id else { return nil }
    return entry.wsi
  }
}

/// What the transport knows of whether one connection is alive.
struct Liveness {
  var heard = ContinuousClock.now
  var pinged = ContinuousClock.now
  var pingPending = false
  var closing = false
}

/// The part of an inbound WebSocket message received so far.
struct InboundMessage {
  /// The payload of the fragments so far.
  var bytes: [UInt8] = []
  /// Set once the connection exceeded its size limit: nothing more is delivered.
  var rejected = false
}
