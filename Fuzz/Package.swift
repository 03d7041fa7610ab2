// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for CloudScrub's readers, kept out of the main package's build.
// Build and run them with scripts/fuzz.sh, which passes the sanitizer flags:
//   swift build -c release --package-path Fuzz --sanitize fuzzer \
//     -Xswiftc -sanitize=fuzzer,address
// (swiftc keeps only the last -sanitize= flag, so fuzzer and address go in one; the
// --sanitize fuzzer option makes SwiftPM link libFuzzer's main).
let package = Package(
  name: "CloudScrubFuzz",
  dependencies: [.package(name: "CloudScrub", path: "..")],
  targets: [
    .executableTarget(
      name: "cloudscrub-fuzz",
      dependencies: [.product(name: "CloudScrubFuzzTargets", package: "CloudScrub")])
  ]
)
