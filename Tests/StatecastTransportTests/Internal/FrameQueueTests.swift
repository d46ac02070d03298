import Testing

@testable import StatecastTransport

@Suite struct FrameQueueTests {
  @Test func framesComeOutInOrderAcrossCompactions() {
    var queue = FrameQueue<OutboundFrame>()
    let frames = (0..<1_000).map { OutboundFrame(text: "\($0)") }
    var out: [String] = []
    for (index, frame) in frames.enumerated() {
      queue.append(frame)
      if index % 3 == 0, let first = queue.popFirst() {
        out.append(String(decoding: first.payload, as: UTF8.self))
      }
    }
    while let frame = queue.popFirst() { out.append(String(decoding: frame.payload, as: UTF8.self)) }
    #expect(out == (0..<1_000).map(String.init))
    #expect(queue.isEmpty)
    #expect(queue.count == 0)
  }
}
