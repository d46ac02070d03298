/// Who runs a room of a cluster, as this process sees it: this process (its *owner*,
/// holding the room's lease and running its store), another process (this one
/// *follows* it), the room changing hands, or the room closed here.
///
/// While this process gives the room up (its store closing, the new holder looked up),
/// a member's request has nowhere to go: its target is ``Target/handingOver``, and it
/// waits until the room has settled (followed to the new holder, or taken back), then
/// asks again. Nothing meets the closing store.
///
/// A value with no locks, sockets or database: ``ClusterRoomHost`` feeds it what
/// happened (an event) and carries out what it answers (its actions), so every change
/// of hands is decided here, in one place, and tested without a cluster. `Store` is the
/// room's store host while this process owns it.
///
///     follower ──check──▶ changing hands ──found another──▶ follower (members rejoin)
///        ▲                       │
///        │                       └──took the lease──▶ owner ──lease lost──▶ stepping down
///        └──────────────── found the new holder ────────────────────────────────┤
///                                       taken back ◀── reclaiming ◀── nobody holds it
///     any ──close / last member left──▶ closed
struct RoomOwnership<Store> {
  enum State {
    /// This process holds the lease and runs the store.
    case owner(Store)
    /// `owner` runs the room; this process forwards its members' requests there.
    case follower(owner: String)
    /// A follower asking who runs the room now (its owner may be gone); requests still
    /// go to `from` meanwhile.
    case changingHands(from: String)
    /// The lease was lost: the store closes and the room's new holder is looked up;
    /// requests wait meanwhile.
    case steppingDown(Store)
    /// Stepped down, and nobody holds the lease: this process asks for it again (taking
    /// the room back if it is still free); requests wait meanwhile.
    case reclaiming
    case closed
  }

  /// Where a member's request goes now.
  enum Target {
    case store(Store)
    case owner(String)
    /// The room is changing hands here: wait until it has settled, then ask again.
    case handingOver
    case closed
  }

  enum Event {
    /// Upkeep, or a forwarded request the owner refused: is the owner still the owner?
    case checkOwner
    /// The lease's holder is still the owner followed, or no room could be opened here.
    case ownerUnchanged
    /// Another process holds the lease (it took the room over, or this one stepped down).
    case ownerIs(String)
    /// This process took the lease and opened the store from the room's durable log.
    case tookOver(Store)
    /// Nobody holds the lease after this process stepped down.
    case ownerUnknown
    /// The lease could not be renewed: another process may run the room now.
    case leaseLost
    /// The store's last member left (owner), or this process's last member (follower).
    case lastMemberLeft
    /// The room closes in this process (its store could not take a member, or shutdown).
    case close
  }

  enum Action {
    /// Ask the backplane who holds the lease, taking it if nobody does.
    case lookUpOwner(current: String)
    /// Ask the backplane who holds the lease now, without taking it.
    case lookUpHolder
    /// This process's members join `owner`, each getting a fresh snapshot there.
    case rejoinMembers(owner: String)
    /// Requests still waiting on `node` will not be answered: end them now.
    case abandonRequests(node: String)
    /// Log that this process runs the room now.
    case announceTakeover
    /// Close the store (its effects end, a durable store's commits finish).
    case closeStore(Store)
    /// Release the lease, once the store's closing has finished.
    case releaseLease(after: Store?)
    /// The members still on sockets here stay in `owner`'s room as reconnecting.
    case detachMembers(owner: String)
    /// Remove the room from the process's table of rooms.
    case unregister
  }

  private(set) var state: State

  init(_ state: State) {
    self.state = state
  }

  var target: Target {
    switch state {
    case .owner(let store): .store(store)
    case .follower(let owner), .changingHands(let owner): .owner(owner)
    case .steppingDown, .reclaiming: .handingOver
    case .closed: .closed
    }
  }

  /// Whether this process holds the lease (and renews it).
  var isOwner: Bool {
    if case .owner = state { true } else { false }
  }

  /// The store, while this process owns the room.
  var store: Store? {
    if case .owner(let store) = state { store } else { nil }
  }

  /// The process followed, while this one follows (also while it asks whether that
  /// process still runs the room).
  var followed: String? {
    switch state {
    case .follower(let owner), .changingHands(let owner): owner
    default: nil
    }
  }

  /// Whether requests wait for the room to settle (see ``Target/handingOver``).
  var isHandingOver: Bool {
    if case .handingOver = target { true } else { false }
  }

  var isClosed: Bool {
    if case .closed = state { true } else { false }
  }

  mutating func handle(_ event: Event) -> [Action] {
    switch (state, event) {
    case (.follower(let owner), .checkOwner):
      state = .changingHands(from: owner)
      return [.lookUpOwner(current: owner)]
    case (_, .checkOwner):
      return []

    case (.changingHands(let owner), .ownerUnchanged):
      state = .follower(owner: owner)
      return []
    case (.changingHands(let former), .ownerIs(let owner)):
      state = .follower(owner: owner)
      return [.rejoinMembers(owner: owner), .abandonRequests(node: former)]
    case (.changingHands(let former), .tookOver(let store)):
      state = .owner(store)
      return [.announceTakeover, .abandonRequests(node: former)]

    case (.owner(let store), .leaseLost):
      state = .steppingDown(store)
      return [.closeStore(store), .lookUpHolder]
    case (.steppingDown, .ownerIs(let owner)), (.reclaiming, .ownerIs(let owner)):
      state = .follower(owner: owner)
      return [.rejoinMembers(owner: owner)]
    case (.steppingDown, .ownerUnknown):
      state = .reclaiming
      return [.lookUpOwner(current: "")]
    case (.reclaiming, .tookOver(let store)):
      state = .owner(store)
      return [.announceTakeover]
    case (.reclaiming, .ownerUnchanged):
      // The lease could not be taken: as a follower of nobody, the next check tries again.
      state = .follower(owner: "")
      return []

    case (.owner(let store), .lastMemberLeft):
      state = .closed
      return [.releaseLease(after: store), .unregister]
    case (.follower, .lastMemberLeft), (.changingHands, .lastMemberLeft), (.steppingDown, .lastMemberLeft),
      (.reclaiming, .lastMemberLeft):
      state = .closed
      return [.unregister]

    case (.owner(let store), .close):
      state = .closed
      return [.closeStore(store), .releaseLease(after: store), .unregister]
    case (.follower(let owner), .close), (.changingHands(let owner), .close):
      state = .closed
      return [.unregister, .detachMembers(owner: owner)]
    case (.steppingDown, .close), (.reclaiming, .close):
      state = .closed
      return [.unregister]

    case (.closed, .tookOver(let store)):
      // The room closed while the store was being opened: it closes again at once.
      return [.closeStore(store), .releaseLease(after: store)]
    default:
      // What no longer applies (a late answer, a second close) changes nothing.
      return []
    }
  }
}

extension RoomOwnership: Sendable where Store: Sendable {}
extension RoomOwnership.State: Sendable where Store: Sendable {}
extension RoomOwnership.Target: Sendable where Store: Sendable {}
extension RoomOwnership.Event: Sendable where Store: Sendable {}
extension RoomOwnership.Action: Sendable where Store: Sendable {}
extension RoomOwnership.Action: Equatable where Store: Equatable {}
extension RoomOwnership.State: Equatable where Store: Equatable {}
