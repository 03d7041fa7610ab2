import Foundation
import FuzzTargets

// One libFuzzer binary for every target: `CLOUDSCRUB_FUZZ_TARGET` names the one to run
// (`scripts/fuzz.sh` sets it). With `CLOUDSCRUB_FUZZ_WRITE_SEEDS=FOLDER` the binary
// writes that target's seeds there and exits instead of fuzzing; with
// `CLOUDSCRUB_FUZZ_LIST=1` it prints each target's name and longest input and exits.

nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  let environment = ProcessInfo.processInfo.environment
  let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
  if environment["CLOUDSCRUB_FUZZ_LIST"] == "1" {
    print(FuzzTargets.all.map { "\($0.name) \($0.maxLength)" }.joined(separator: "\n"))
    exit(0)
  }
  guard let name = environment["CLOUDSCRUB_FUZZ_TARGET"], let target = FuzzTargets.named(name)
  else {
    FileHandle.standardError.write(Data("set CLOUDSCRUB_FUZZ_TARGET to one of: \(names)\n".utf8))
    exit(2)
  }
  if let folder = environment["CLOUDSCRUB_FUZZ_WRITE_SEEDS"] {
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (index, seed) in target.seeds().enumerated() {
      try? Data(seed).write(to: URL(fileURLWithPath: folder + "/seed-\(index)"))
    }
    exit(0)
  }
  selected = target
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let target = selected else { return 0 }
  target.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
