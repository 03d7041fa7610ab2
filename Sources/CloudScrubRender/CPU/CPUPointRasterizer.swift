import CloudScrubCore
import Foundation

/// A picture of points drawn on the CPU: colour and window depth for every pixel, rows
/// bottom-up as OpenGL stores them, ready to be the scene target's textures.
public struct CPUSceneImage: Equatable, Sendable {
  public var widthPixels: Int
  public var heightPixels: Int
  /// Red, green, blue, alpha bytes in memory order; alpha 255 where a point is, 0 on
  /// the background.
  public var colorRGBA: [UInt32]
  /// Window depth in 0…1; 1 on the background.
  public var depth: [Float]

  /// The pixel at `x`, `y` counted from the bottom-left corner.
  public func color(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let c = colorRGBA[y * widthPixels + x]
    return (
      UInt8(truncatingIfNeeded: c), UInt8(truncatingIfNeeded: c >> 8),
      UInt8(truncatingIfNeeded: c >> 16), UInt8(c >> 24)
    )
  }
}

/// Draws points straight from the CPU `PointStore` (no copy of them), the way the
/// points shader and OpenGL's point rasterisation draw them: the same projection,
/// clip volume, point squares and discs, colour modes, minimum confidence and dimming.
///
/// Each worker (one a core) splats its share of every draw into a buffer of its own of
/// packed depth-and-colour words, keeping the smaller (nearer) word per pixel; the
/// buffers are merged by minimum when the picture is resolved. No locks, no atomics:
/// the result does not depend on how the points were shared out, except where two
/// points have exactly the same depth, when the smaller colour word wins.
public final class CPUPointRasterizer {
  /// The number of buffers draws are split over.
  public let workerCount: Int
  public private(set) var widthPixels = 0
  public private(set) var heightPixels = 0
  /// Points handed to `draw` since `begin` (drawn or not).
  public private(set) var pointsSubmitted = 0
  /// One packed depth-and-colour buffer a worker.
  var buffers: [UnsafeMutablePointer<UInt64>] = []
  /// The last mesh draw's vertices after the vertex stage, kept so that they are not
  /// reallocated each picture.
  var shadedVertices: [ShadedVertex] = []
  private var capacityPixels = 0
  private var cleared: [Bool]
  private var clearWord: UInt64 = 0
  /// Draws smaller than this run on one worker: splitting costs a buffer clear.
  static let pointsPerExtraWorker = 1 << 16

  /// - Parameter workerCount: buffers and threads; the machine's core count by default.
  public init(workerCount: Int = Parallel.cores) {
    self.workerCount = max(1, workerCount)
    cleared = Array(repeating: false, count: self.workerCount)
  }

  deinit {
    for buffer in buffers { buffer.deallocate() }
  }

  /// Starts a picture of `widthPixels` × `heightPixels` on `background` (no points).
  public func begin(widthPixels: Int, heightPixels: Int, background: SIMD3<Float>) {
    let width = max(1, widthPixels)
    let height = max(1, heightPixels)
    if width * height > capacityPixels {
      for buffer in buffers { buffer.deallocate() }
      capacityPixels = width * height
      buffers = (0..<workerCount).map { _ in
        UnsafeMutablePointer<UInt64>.allocate(capacity: width * height)
      }
    }
    self.widthPixels = width
    self.heightPixels = height
    clearWord = UInt64(Float(1).bitPattern) << 32 | UInt64(CPUPointShading.background(background))
    cleared = Array(repeating: false, count: workerCount)
    pointsSubmitted = 0
  }

  /// Draws points `range` of `store` with `uniforms`, over what is already drawn.
  public func draw(_ store: PointStore, range: Range<Int>, uniforms: PointUniforms) {
    // A frame's pose correction is applied while projecting.
    let uniforms = uniforms.composingWorldFromStored()
    let range = range.clamped(to: 0..<store.count)
    guard !range.isEmpty, !buffers.isEmpty else { return }
    pointsSubmitted += range.count
    let parts = range.count >= Self.pointsPerExtraWorker ? workerCount : 1
    let dimmed = uniforms.dimmed
    store.positions.withUnsafeBufferPointer { positions in
      store.colors.withUnsafeBufferPointer { colors in
        store.confidence.withUnsafeBufferPointer { confidence in
          guard let p = positions.baseAddress, let c = colors.baseAddress,
            let k = confidence.baseAddress
          else {
            return
          }
          let points = PointArrays(positions: p, colors: c, confidence: k)
          switch uniforms.colorMode {
          case .rgb where !dimmed:
            run(range, parts: parts, uniforms) {
              $0.splat($1, points: points, StoredColoring(colors: c))
            }
          case .rgb:
            let table = CPUPointShading.byteTable(dimmed: true)
            table.withUnsafeBufferPointer { table in
              guard let t = table.baseAddress else { return }
              run(range, parts: parts, uniforms) {
                $0.splat($1, points: points, DimmedStoredColoring(colors: c, table: t))
              }
            }
          case .height:
            let low = uniforms.heightRangeMeters.lowerBound
            let coloring = HeightColoring(
              up: uniforms.upAxis, low: low,
              span: max(uniforms.heightRangeMeters.upperBound - low, 1e-6),
              dimmed: dimmed)
            run(range, parts: parts, uniforms) { $0.splat($1, points: points, coloring) }
          case .depth:
            let m = uniforms.view.columnMajor
            let low = uniforms.depthRangeMeters.lowerBound
            let coloring = DepthColoring(
              viewRow: SIMD4(m[2], m[6], m[10], m[14]), low: low,
              span: max(uniforms.depthRangeMeters.upperBound - low, 1e-6), dimmed: dimmed)
            run(range, parts: parts, uniforms) { $0.splat($1, points: points, coloring) }
          case .intensity where store.hasIntensity:
            let table = CPUPointShading.byteTable(dimmed: dimmed)
            store.intensity.withUnsafeBufferPointer { levels in
              table.withUnsafeBufferPointer { table in
                guard let l = levels.baseAddress, let t = table.baseAddress else { return }
                run(range, parts: parts, uniforms) {
                  $0.splat($1, points: points, IntensityColoring(levels: l, table: t))
                }
              }
            }
          case .intensity:
            let g = GPUPoint.noIntensityGray
            let color = CPUPointShading.packed(SIMD3(g, g, g), dimmed: dimmed)
            run(range, parts: parts, uniforms) {
              $0.splat($1, points: points, ConstantColoring(packed: color))
            }
          case .confidence:
            let table = (0..<256).map { CPUPointShading.confidenceColor(UInt8($0), dimmed: dimmed) }
            table.withUnsafeBufferPointer { table in
              guard let t = table.baseAddress else { return }
              run(range, parts: parts, uniforms) {
                $0.splat($1, points: points, ConfidenceColoring(table: t))
              }
            }
          case .frame where uniforms.fixedFrame != nil,
            .alignmentError where uniforms.fixedFrame != nil:
            // A level-of-detail draw of one frame's points: one colour.
            let frame = uniforms.fixedFrame ?? 0
            let color =
              uniforms.colorMode == .alignmentError
              ? CPUPointShading.errorColor(
                uniforms.frameErrors.errorMeters(ofFrame: frame),
                scaleMeters: uniforms.frameErrors.scaleMeters, dimmed: dimmed)
              : CPUPointShading.frameColor(frame, frameCount: uniforms.frameCount, dimmed: dimmed)
            run(range, parts: parts, uniforms) {
              $0.splat($1, points: points, ConstantColoring(packed: color))
            }
          case .frame, .alignmentError:
            let starts = store.frameRanges
            let frames = max(0, min(uniforms.frameCount, store.frameCount))
            let errors = uniforms.frameErrors
            let byError = uniforms.colorMode == .alignmentError
            run(range, parts: parts, uniforms) { target, part in
              // A stretch of one frame has one colour.
              var first = part.lowerBound
              while first < part.upperBound {
                let frame = CPUPointShading.frame(
                  ofPoint: first, frameStarts: starts, frameCount: frames)
                let end =
                  frame + 1 < frames ? min(part.upperBound, starts[frame + 1]) : part.upperBound
                let color =
                  byError
                  ? CPUPointShading.errorColor(
                    errors.errorMeters(ofFrame: frame), scaleMeters: errors.scaleMeters,
                    dimmed: dimmed)
                  : CPUPointShading.frameColor(frame, frameCount: frames, dimmed: dimmed)
                target.splat(first..<end, points: points, ConstantColoring(packed: color))
                first = end
              }
            }
          }
        }
      }
    }
  }

  /// Merges the workers' buffers into the picture: `colorRGBA` and `depth` hold at
  /// least `widthPixels × heightPixels` values each.
  public func resolve(colorRGBA: UnsafeMutablePointer<UInt32>, depth: UnsafeMutablePointer<Float>) {
    let pixels = widthPixels * heightPixels
    let used = (0..<workerCount).filter { cleared[$0] }.map { buffers[$0] }
    let job = ResolveJob(
      sources: used, colorRGBA: colorRGBA, depth: depth, clearWord: clearWord, pixels: pixels)
    let bands = pixels >= 1 << 16 ? workerCount : 1
    Parallel.perform(iterations: bands) { band in
      job.run(pixels * band / bands..<pixels * (band + 1) / bands)
    }
  }

  /// The picture as arrays (for tests and for the benchmark's check).
  public func resolvedImage() -> CPUSceneImage {
    let pixels = widthPixels * heightPixels
    var color = [UInt32](repeating: 0, count: pixels)
    var depth = [Float](repeating: 0, count: pixels)
    color.withUnsafeMutableBufferPointer { c in
      depth.withUnsafeMutableBufferPointer { d in
        guard let c = c.baseAddress, let d = d.baseAddress else { return }
        resolve(colorRGBA: c, depth: d)
      }
    }
    return CPUSceneImage(
      widthPixels: widthPixels, heightPixels: heightPixels, colorRGBA: color, depth: depth)
  }

  // MARK: - Workers

  /// Splits `range` (points or triangles) into `parts` and runs `body` for each on its
  /// own buffer, cleared first if this picture has not used it yet.
  func run(
    _ range: Range<Int>, parts: Int, _ uniforms: PointUniforms,
    _ body: (CPUSplatTarget, Range<Int>) -> Void
  ) {
    let pixels = widthPixels * heightPixels
    let targets = (0..<parts).map {
      CPUSplatTarget(
        buffer: buffers[$0], widthPixels: widthPixels, heightPixels: heightPixels,
        uniforms: uniforms)
    }
    let needsClear = (0..<parts).map { !cleared[$0] }
    for part in 0..<parts { cleared[part] = true }
    let clearWord = self.clearWord
    // Several chunks a worker, claimed one by one: a worker that gets less of the
    // machine (another process on its core) takes fewer, and none waits long for it.
    // The picture does not depend on who drew what (the merge is a minimum).
    let chunks = parts == 1 ? 1 : parts * Self.chunksPerWorker
    let queue = ChunkQueue(range: range, chunks: chunks)
    withoutActuallyEscaping(body) { body in
      let work = UncheckedWork(body: body)
      Parallel.perform(iterations: parts) { part in
        let target = targets[part]
        if needsClear[part] { target.buffer.update(repeating: clearWord, count: pixels) }
        while let chunk = queue.next() { work.body(target, chunk) }
      }
    }
  }

  /// Chunks a draw is cut into per worker.
  static let chunksPerWorker = 8
}

/// The chunks of a range, handed out in order to whichever worker asks next.
private final class ChunkQueue: @unchecked Sendable {
  private let lock = NSLock()
  private let range: Range<Int>
  private let chunks: Int
  private var nextChunk = 0

  init(range: Range<Int>, chunks: Int) {
    self.range = range
    self.chunks = max(1, chunks)
  }

  func next() -> Range<Int>? {
    lock.lock()
    defer { lock.unlock() }
    guard nextChunk < chunks else { return nil }
    let k = nextChunk
    nextChunk += 1
    let count = range.count
    return (range.lowerBound + count * k / chunks)..<(range.lowerBound + count * (k + 1) / chunks)
  }
}

/// The store's arrays as pointers, for the splatting loop.
struct PointArrays: @unchecked Sendable {
  let positions: UnsafePointer<Point3>
  let colors: UnsafePointer<RGB8>
  let confidence: UnsafePointer<UInt8>
}

extension CPUSplatTarget {
  @inline(__always)
  func splat<C: CPUPointColoring>(_ range: Range<Int>, points: PointArrays, _ coloring: C) {
    splat(range, positions: points.positions, confidence: points.confidence, coloring: coloring)
  }
}

/// A worker's body; each worker writes only its own buffer.
private struct UncheckedWork: @unchecked Sendable {
  let body: (CPUSplatTarget, Range<Int>) -> Void
}

/// The merge of the workers' buffers by minimum, unpacked into colour and depth.
private struct ResolveJob: @unchecked Sendable {
  let sources: [UnsafeMutablePointer<UInt64>]
  let colorRGBA: UnsafeMutablePointer<UInt32>
  let depth: UnsafeMutablePointer<Float>
  let clearWord: UInt64
  let pixels: Int

  func run(_ band: Range<Int>) {
    for pixel in band {
      var word = clearWord
      for source in sources { word = min(word, source[pixel]) }
      colorRGBA[pixel] = UInt32(truncatingIfNeeded: word)
      depth[pixel] = Float(bitPattern: UInt32(truncatingIfNeeded: word >> 32))
    }
  }
}
