import CloudScrubBench
import CloudScrubCLI
import Foundation

exit(CloudScrubCommand.run(Array(CommandLine.arguments.dropFirst()), bench: BenchCommand.run))
