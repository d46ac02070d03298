import ArgumentParser
import StatecastServer

/// The server's limits (PROTOCOL.md's defaults): the flags of `statecast-demo --help`'s
/// "Limits" section, each with its `STATECAST_…` environment variable.
struct LimitOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Largest inbound message (default 65536; env STATECAST_MAX_MESSAGE_SIZE).", valueName: "bytes"))
  var maxMessageSize: Int?

  @Option(
    help: ArgumentHelp(
      "Ping idle peers this often (default 20; env STATECAST_PING_INTERVAL).", valueName: "seconds"))
  var pingInterval: Double?

  @Option(
    help: ArgumentHelp(
      "Close peers silent this long (default 60; env STATECAST_IDLE_TIMEOUT).", valueName: "seconds"))
  var idleTimeout: Double?

  @Option(
    help: ArgumentHelp(
      "Keep a disconnected session this long for a resume (default 30; env STATECAST_SESSION_GRACE).",
      valueName: "seconds"))
  var sessionGrace: Double?

  @Option(
    help: ArgumentHelp(
      "Keep the session a page's GET opened this long for the page's socket (default 10; env STATECAST_PAGE_SESSION_GRACE).",
      valueName: "seconds"))
  var pageSessionGrace: Double?

  @Option(
    help: ArgumentHelp(
      "Actions a connection may send at once (default 1000; env STATECAST_ACTION_BURST).", valueName: "n"))
  var actionBurst: Int?

  @Option(
    help: ArgumentHelp(
      "Refill rate of that allowance (default 1000; env STATECAST_ACTIONS_PER_SECOND).", valueName: "n"))
  var actionsPerSecond: Double?

  @Option(
    help: ArgumentHelp(
      "Open WebSocket connections at most; upgrades beyond are answered 503 (default 10000; env STATECAST_MAX_CONNECTIONS).",
      valueName: "n"))
  var maxConnections: Int?

  @Option(
    help: ArgumentHelp(
      "Open WebSocket connections from one address at most (default 256; env STATECAST_MAX_CONNECTIONS_PER_ADDRESS).",
      valueName: "n"))
  var maxConnectionsPerAddress: Int?

  @Option(
    help: ArgumentHelp(
      "Delete durable rooms unused this long; 0 keeps them forever (default 2592000, 30 days; env STATECAST_ROOM_TTL).",
      valueName: "seconds"))
  var roomTTL: Double?

  @Option(
    help: ArgumentHelp(
      "New durable rooms one viewer may create per hour (default 50; env STATECAST_MAX_NEW_ROOMS_PER_VIEWER).",
      valueName: "n"))
  var maxNewRoomsPerViewer: Int?

  @Option(
    help: ArgumentHelp(
      "New durable rooms the viewers of one address may create per hour (default 500; env STATECAST_MAX_NEW_ROOMS_PER_ADDRESS).",
      valueName: "n"))
  var maxNewRoomsPerAddress: Int?

  @Option(
    help: ArgumentHelp(
      "Save sessions and per-tab state this often; after a kill -9 a tab comes back as of the last save (default 2; env STATECAST_SESSION_SAVE_INTERVAL).",
      valueName: "seconds"))
  var sessionSaveInterval: Double?

  mutating func validate() throws {
    var scratch = ServerConfiguration()
    try apply(to: &scratch, environment: Environment())
  }

  /// Sets the configuration's limits from the flags, else the environment.
  func apply(to server: inout ServerConfiguration, environment: Environment) throws {
    let positive = (description: "above 0", check: { (value: Double) in value.isFinite && value > 0 })
    let nonNegative = (description: "0 or more", check: { (value: Double) in value.isFinite && value >= 0 })
    if let size = try environment.value(
      maxMessageSize, "STATECAST_MAX_MESSAGE_SIZE", for: "--max-message-size",
      must: ("at least 1", { $0 >= 1 }))
    {
      server.maxMessageSize = size
    }
    if let seconds = try environment.value(
      pingInterval, "STATECAST_PING_INTERVAL", for: "--ping-interval", must: positive)
    {
      server.pingInterval = .seconds(seconds)
    }
    if let seconds = try environment.value(
      idleTimeout, "STATECAST_IDLE_TIMEOUT", for: "--idle-timeout", must: positive)
    {
      server.idleTimeout = .seconds(seconds)
    }
    if let seconds = try environment.value(
      sessionGrace, "STATECAST_SESSION_GRACE", for: "--session-grace", must: nonNegative)
    {
      server.sessionGracePeriod = .seconds(seconds)
    }
    if let seconds = try environment.value(
      pageSessionGrace, "STATECAST_PAGE_SESSION_GRACE", for: "--page-session-grace", must: nonNegative)
    {
      server.pageSessionGrace = .seconds(seconds)
    }
    if let count = try environment.value(
      maxConnections, "STATECAST_MAX_CONNECTIONS", for: "--max-connections", must: ("at least 1", { $0 >= 1 })
    ) {
      server.maxConnections = count
    }
    if let count = try environment.value(
      maxConnectionsPerAddress, "STATECAST_MAX_CONNECTIONS_PER_ADDRESS", for: "--max-connections-per-address",
      must: ("at least 1", { $0 >= 1 }))
    {
      server.maxConnectionsPerAddress = count
    }
    if let seconds = try environment.value(
      roomTTL, "STATECAST_ROOM_TTL", for: "--room-ttl", must: nonNegative)
    {
      server.roomTimeToLive = seconds == 0 ? nil : .seconds(seconds)
    }
    if let count = try environment.value(
      maxNewRoomsPerViewer, "STATECAST_MAX_NEW_ROOMS_PER_VIEWER", for: "--max-new-rooms-per-viewer",
      must: ("0 or more", { $0 >= 0 }))
    {
      server.maxNewRoomsPerViewer = count
    }
    if let count = try environment.value(
      maxNewRoomsPerAddress, "STATECAST_MAX_NEW_ROOMS_PER_ADDRESS", for: "--max-new-rooms-per-address",
      must: ("0 or more", { $0 >= 0 }))
    {
      server.maxNewRoomsPerAddress = count
    }
    if let seconds = try environment.value(
      sessionSaveInterval, "STATECAST_SESSION_SAVE_INTERVAL", for: "--session-save-interval", must: positive)
    {
      server.sessionSaveInterval = .seconds(seconds)
    }
    if let burst = try environment.value(
      actionBurst, "STATECAST_ACTION_BURST", for: "--action-burst", must: ("0 or more", { $0 >= 0 }))
    {
      server.actionBurst = burst
    }
    if let rate = try environment.value(
      actionsPerSecond, "STATECAST_ACTIONS_PER_SECOND", for: "--actions-per-second", must: nonNegative)
    {
      server.actionsPerSecond = rate
    }
  }
}
