import Foundation
import StatecastExamples
import StatecastServer

/// The demo's topics: one per example feature, each a store per browser tab.
func demoRoutes(dataDirectory: URL) -> [Route] {
  let counter = Counter.Dependencies.live(dataDirectory: dataDirectory)
  return [
    .perSession(
      "counter",
      clientAction: Counter.ClientAction.self,
      embed: Counter.Action.client,
      view: Counter.viewState,
      store: { _ in Counter.makeStore(dependencies: counter) }
    )
  ]
}
