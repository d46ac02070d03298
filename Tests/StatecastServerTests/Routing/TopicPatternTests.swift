import Testing

@testable import StatecastServer

/// Topic names against route patterns: literal segments, `:name` captures, exact length.
@Suite(.timeLimit(.minutes(1))) struct TopicPatternTests {
  @Test func literalPatternsMatchOnlyThemselves() {
    let pattern = TopicPattern("counter")
    #expect(pattern.match("counter") == [:])
    #expect(pattern.match("counters") == nil)
    #expect(pattern.match("counter/1") == nil)
    #expect(pattern.match("") == nil)
  }

  @Test func parametersCaptureOneNonEmptySegment() {
    let pattern = TopicPattern("board/:id/column/:column")
    #expect(pattern.match("board/42/column/todo") == ["id": "42", "column": "todo"])
    #expect(pattern.match("board//column/todo") == nil)
    #expect(pattern.match("board/42/column") == nil)
    #expect(pattern.match("board/42/row/todo") == nil)
  }

  @Test func segmentsAreComparedByteForByte() {
    #expect(TopicPattern("Counter").match("counter") == nil)
    #expect(TopicPattern("room/:id").match("room/café") == ["id": "café"])
    #expect(TopicPattern("room/:id").match("room/a/") == nil)
  }
}
