/// Whether this run is `statecast-bench --quick`: every section at a small fraction of
/// its sizes and waits. The test command runs it so that a section that stops working
/// (a limit it meets, an API it uses) fails a test run, not only the next measurement;
/// its figures are not measurements.
let isQuickRun = CommandLine.arguments.contains("--quick")

/// `full` in a measuring run; in a `--quick` run a fiftieth of it, at least `minimum`.
func benchSize(_ full: Int, minimum: Int = 1) -> Int {
  isQuickRun ? max(minimum, full / 50) : full
}

/// `full` seconds in a measuring run; a tenth of a second in a `--quick` run.
func benchSeconds(_ full: Double) -> Double {
  isQuickRun ? min(full, 0.1) : full
}
