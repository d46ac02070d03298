/// A FIFO of frames for one connection: append at the tail, take from a head index.
///
/// Why not `Array.removeFirst()`: that shifts every remaining element, which turns a
/// long backlog's draining quadratic. The head index makes each take O(1); the storage
/// is compacted only when the consumed prefix is the larger half. Mutate it in place
/// inside its owner (never copy it out of a table to modify it, which would copy the
/// storage too). Server connections queue shared ``OutboundFrame``s; client connections
/// queue their own frames.
package struct FrameQueue<Frame> {
  private var frames: [Frame] = []
  private var head = 0

  package init() {}

  package var isEmpty: Bool { head == frames.count }
  package var count: Int { frames.count - head }

  package mutating func append(_ frame: Frame) {
    frames.append(frame)
  }

  package mutating func append(contentsOf newFrames: some Sequence<Frame>) {
    frames.append(contentsOf: newFrames)
  }

  /// The oldest frame, left in place; `nil` when empty.
  package var first: Frame? {
    head < frames.count ? frames[head] : nil
  }

  /// Takes the oldest frame, or `nil` when empty.
  package mutating func popFirst() -> Frame? {
    guard head < frames.count else { return nil }
    let frame = frames[head]
    head += 1
    if head == frames.count {
      // Empty again: drop the storage so that an idle connection holds no buffer.
      frames = []
      head = 0
    } else if head >= 64 && head * 2 >= frames.count {
      frames.removeSubrange(0..<head)
      head = 0
    }
    return frame
  }

  /// Drops every frame and the storage.
  package mutating func removeAll() {
    frames = []
    head = 0
  }
}

extension FrameQueue: Sendable where Frame: Sendable {}
