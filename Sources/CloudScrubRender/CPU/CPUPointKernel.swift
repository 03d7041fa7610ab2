import CloudScrubCore

/// How a point's colour is found, one type a colour mode, so that the splatting loop
/// is specialised per mode and has no switch inside.
protocol CPUPointColoring {
  func color(at index: Int, position: Point3, confidence: UInt8) -> UInt32
}

/// The stored colour as it is.
struct StoredColoring: CPUPointColoring {
  let colors: UnsafePointer<RGB8>

  @inline(__always)
  func color(at index: Int, position: Point3, confidence: UInt8) -> UInt32 {
    let c = colors[index]
    return UInt32(c.r) | UInt32(c.g) << 8 | UInt32(c.b) << 16 | CPUPointShading.pointAlpha
  }
}

/// The stored colour through a byte table (the dimmed bytes).
struct DimmedStoredColoring: CPUPointColoring {
  let colors: UnsafePointer<RGB8>
  let table: UnsafePointer<UInt32>

  @inline(__always)
  func color(at index: Int, position: Point3, confidence: UInt8) -> UInt32 {
    let c = colors[index]
    return table[Int(c.r)] | table[Int(c.g)] << 8 | table[Int(c.b)] << 16
      | CPUPointShading.pointAlpha
  }
}

/// The ramp over height along the up axis.
struct HeightColoring: CPUPointColoring {
  let up: SIMD3<Float>
  let low: Float
  let span: Float
  let dimmed: Bool

  @inline(__always)
  func color(at index: Int, position p: Point3, confidence: UInt8) -> UInt32 {
    let h = p.x * up.x + p.y * up.y + p.z * up.z
    return CPUPointShading.packed(CPUPointShading.ramp((h - low) / span), dimmed: dimmed)
  }
}

/// The ramp over distance along the view direction.
struct DepthColoring: CPUPointColoring {
  /// The third row of the view matrix: view-space z is its dot with (x, y, z, 1).
  let viewRow: SIMD4<Float>
  let low: Float
  let span: Float
  let dimmed: Bool

  @inline(__always)
  func color(at index: Int, position p: Point3, confidence: UInt8) -> UInt32 {
    let d = -(viewRow.x * p.x + viewRow.y * p.y + viewRow.z * p.z + viewRow.w)
    return CPUPointShading.packed(CPUPointShading.ramp((d - low) / span), dimmed: dimmed)
  }
}

/// A colour a confidence value (the confidence mode).
struct ConfidenceColoring: CPUPointColoring {
  let table: UnsafePointer<UInt32>

  @inline(__always)
  func color(at index: Int, position: Point3, confidence: UInt8) -> UInt32 {
    table[Int(confidence)]
  }
}

/// A grey a point by its intensity level, through a byte table (dimmed or not).
struct IntensityColoring: CPUPointColoring {
  let levels: UnsafePointer<UInt8>
  let table: UnsafePointer<UInt32>

  @inline(__always)
  func color(at index: Int, position: Point3, confidence: UInt8) -> UInt32 {
    let grey = table[Int(levels[index])]
    return grey | grey << 8 | grey << 16 | CPUPointShading.pointAlpha
  }
}

/// One colour for every point (a stretch of one frame in the frame mode).
struct ConstantColoring: CPUPointColoring {
  let packed: UInt32

  @inline(__always)
  func color(at index: Int, position: Point3, confidence: UInt8) -> UInt32 { packed }
}

/// What one worker draws into: its packed depth-and-colour buffer, and the view.
///
/// Each word is the window depth's bit pattern (a non-negative `Float`, so integer
/// order is depth order) in the high 32 bits and the packed colour in the low 32:
/// the smaller word is the nearer point, as with a depth test of `GL_LESS`.
struct CPUSplatTarget: @unchecked Sendable {
  var buffer: UnsafeMutablePointer<UInt64>
  var widthPixels: Int
  var heightPixels: Int
  /// Rows of the view-projection matrix.
  var row0: SIMD4<Float>
  var row1: SIMD4<Float>
  var row2: SIMD4<Float>
  var row3: SIMD4<Float>
  /// Confidence values below this are not drawn; 255 ("no map") always is.
  var minConfidence: UInt8
  var pointSizePixels: Float
  var roundPoints: Bool

  init(
    buffer: UnsafeMutablePointer<UInt64>, widthPixels: Int, heightPixels: Int,
    uniforms: PointUniforms
  ) {
    self.buffer = buffer
    self.widthPixels = widthPixels
    self.heightPixels = heightPixels
    let m = uniforms.viewProjection.columnMajor
    row0 = SIMD4(m[0], m[4], m[8], m[12])
    row1 = SIMD4(m[1], m[5], m[9], m[13])
    row2 = SIMD4(m[2], m[6], m[10], m[14])
    row3 = SIMD4(m[3], m[7], m[11], m[15])
    minConfidence = uniforms.minConfidence.rawValue
    // GL points are at least one pixel wide.
    pointSizePixels = max(1, uniforms.pointSizePixels)
    roundPoints = uniforms.roundPoints
  }

  /// Splats points `range`: each one inside the clip volume covers the pixels whose
  /// centres lie in the square of side `pointSizePixels` about its window position
  /// (in the disc of that diameter for round points), and keeps a pixel when nearer
  /// than what the pixel holds.
  ///
  /// Two loops a batch: the first projects points and lists the pixels they cover with
  /// their words; the second writes them. The second is a handful of instructions a
  /// pixel with no branch on the data, so many of its framebuffer loads (the slow
  /// part: the framebuffer is larger than the caches near the core) are in flight at
  /// once.
  @inline(__always)
  func splat<C: CPUPointColoring>(
    _ range: Range<Int>, positions: UnsafePointer<Point3>, confidence: UnsafePointer<UInt8>,
    coloring: C
  ) {
    let width = widthPixels
    let height = heightPixels
    let widthWindow = Float(width)
    let heightWindow = Float(height)
    let halfWidth = widthWindow * 0.5
    let halfHeight = heightWindow * 0.5
    let minimum = minConfidence
    let half = pointSizePixels * 0.5
    let radiusSquared = half * half
    let round = roundPoints
    let roundMask = round ? 1 : 0
    // A round point one pixel wide keeps its pixel only when the pixel centre is within
    // half a pixel of it (gl_PointCoord's disc test), so it takes the general path.
    let single = pointSizePixels == 1 && !round
    // Pixels one point can cover: ⌈size⌉ + 1 a side at most.
    let side = Int(pointSizePixels) + 2
    let footprint = side * side
    let twoWide = pointSizePixels == 2
    let roundBits: UInt32 = round ? 0xF : 0
    let capacity = max(2048, 4 * footprint)
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: capacity) { words in
      withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { pixels in
        guard let words = words.baseAddress, let pixels = pixels.baseAddress else { return }
        var count = 0
        // Lists only for points two pixels wide: a draw of other points allocates none.
        var squares = CPUPixelSquares(
          buffer: buffer, widthPixels: width, capacity: twoWide ? 1024 : 0)
        defer { squares.finish() }
        for index in range {
          let c = confidence[index]
          if c != 255 && c < minimum { continue }
          let p = positions[index]
          let cw = row3.x * p.x + row3.y * p.y + row3.z * p.z + row3.w
          let cx = row0.x * p.x + row0.y * p.y + row0.z * p.z + row0.w
          let cy = row1.x * p.x + row1.y * p.y + row1.z * p.z + row1.w
          let cz = row2.x * p.x + row2.y * p.y + row2.z * p.z + row2.w
          // Outside the clip volume (behind the camera included): GL drops the point.
          guard cw > 0, abs(cx) <= cw, abs(cy) <= cw, abs(cz) <= cw else { continue }
          let inverseW = 1 / cw
          let xWindow = (cx * inverseW + 1) * halfWidth
          let yWindow = (cy * inverseW + 1) * halfHeight
          // Infinite coordinates give NaN here, which fails these (and would trap in Int()).
          guard xWindow <= widthWindow, yWindow <= heightWindow else { continue }
          // The sign bit cleared: -0 at the near plane is 0.
          let depthBits = (cz * inverseW * 0.5 + 0.5).bitPattern & 0x7FFF_FFFF
          let word =
            UInt64(depthBits) << 32 | UInt64(coloring.color(at: index, position: p, confidence: c))
          if single {
            let x = Int(xWindow)
            let y = Int(yWindow)
            if x >= width || y >= height { continue }
            pixels[count] = Int32(truncatingIfNeeded: y &* width &+ x)
            words[count] = word
            count &+= 1
            if count == capacity { Self.write(words, pixels, count, into: buffer); count = 0 }
            continue
          }
          if twoWide {
            // Two pixels a side: x0 is the first integer at or above xWindow - 1.5, one
            // conversion (xWindow + 0.5 is positive, so truncation is the floor).
            let xEnd = xWindow + 0.5
            let yEnd = yWindow + 0.5
            let mx = Int(xEnd)
            let my = Int(yEnd)
            let x0 = mx &- 1 &- (Float(mx) == xEnd ? 1 : 0)
            let y0 = my &- 1 &- (Float(my) == yEnd ? 1 : 0)
            if x0 >= 0 && y0 >= 0 && x0 &+ 1 < width && y0 &+ 1 < height {
              // One entry for the four pixels, with a bit for each pixel outside the
              // disc (the sign bit of r² - d², as below; a square keeps all four).
              let dx0 = Float(x0) + 0.5 - xWindow
              let dx1 = Float(x0 &+ 1) + 0.5 - xWindow
              let dy0 = Float(y0) + 0.5 - yWindow
              let dy1 = Float(y0 &+ 1) + 0.5 - yWindow
              let ax = radiusSquared - dx0 * dx0
              let bx = radiusSquared - dx1 * dx1
              let ay = dy0 * dy0
              let by = dy1 * dy1
              let outside =
                (ax - ay).bitPattern >> 31 | ((bx - ay).bitPattern >> 31) << 1
                | ((ax - by).bitPattern >> 31) << 2 | ((bx - by).bitPattern >> 31) << 3
              squares.add(y0 &* width &+ x0, word, outside: outside & roundBits)
              continue
            }
          }
          // Pixel x is covered when its centre x + 0.5 lies in [xWindow - half, xWindow + half).
          let x0 = max(0, Self.ceiling(xWindow - half - 0.5))
          let x1 = min(width - 1, Self.ceiling(xWindow + half - 0.5) - 1)
          let y0 = max(0, Self.ceiling(yWindow - half - 0.5))
          let y1 = min(height - 1, Self.ceiling(yWindow + half - 0.5) - 1)
          if x0 > x1 || y0 > y1 { continue }
          if count > capacity - footprint {
            Self.write(words, pixels, count, into: buffer); count = 0
          }
          for y in y0...y1 {
            let dy = Float(y) + 0.5 - yWindow
            let rowStart = y &* width
            for x in x0...x1 {
              pixels[count] = Int32(truncatingIfNeeded: rowStart &+ x)
              words[count] = word
              // Outside the disc: written but not counted, so the next pixel replaces it.
              // The sign bit of r² - d² says which, with no branch to mispredict
              // (r² - d² is +0, not -0, on the rim, which GL keeps).
              let dx = Float(x) + 0.5 - xWindow
              let outside = Int((radiusSquared - (dx * dx + dy * dy)).bitPattern >> 31) & roundMask
              count &+= 1 &- outside
            }
          }
        }
        Self.write(words, pixels, count, into: buffer)
      }
    }
  }

  /// Keeps the smaller word at each listed pixel.
  @inline(__always)
  private static func write(
    _ words: UnsafeMutablePointer<UInt64>, _ pixels: UnsafeMutablePointer<Int32>, _ count: Int,
    into buffer: UnsafeMutablePointer<UInt64>
  ) {
    for k in 0..<count {
      let pixel = buffer + Int(pixels[k])
      // Written only when nearer: most points are hidden, and a line left clean is
      // not written back to memory.
      let word = words[k]
      if word < pixel.pointee { pixel.pointee = word }
    }
  }

  /// The smallest integer at or above `value` (finite, well inside `Int`'s range),
  /// without the library call that `rounded(.up)` becomes on baseline x86-64.
  @inline(__always)
  static func ceiling(_ value: Float) -> Int {
    let truncated = Int(value)
    return Float(truncated) < value ? truncated &+ 1 : truncated
  }
}

/// Two-by-two squares of pixels listed for writing, one entry a point two pixels wide:
/// its top-left pixel, its word, and which of its four pixels it leaves out. Listing a
/// point once instead of its pixels one by one is what makes that size (the default)
/// fast.
private struct CPUPixelSquares {
  let capacity: Int
  let buffer: UnsafeMutablePointer<UInt64>
  let widthPixels: Int
  let pixels: UnsafeMutablePointer<Int32>
  let words: UnsafeMutablePointer<UInt64>
  let outside: UnsafeMutablePointer<UInt8>
  var count = 0

  init(buffer: UnsafeMutablePointer<UInt64>, widthPixels: Int, capacity: Int) {
    self.buffer = buffer
    self.widthPixels = widthPixels
    self.capacity = capacity
    pixels = .allocate(capacity: capacity)
    words = .allocate(capacity: capacity)
    outside = .allocate(capacity: capacity)
  }

  /// Lists the square whose top-left pixel is `pixel`; bit 0 of `outside` leaves out
  /// that pixel, 1 the one to its right, 2 the one above it (the next row), 3 the
  /// fourth.
  @inline(__always)
  mutating func add(_ pixel: Int, _ word: UInt64, outside mask: UInt32) {
    pixels[count] = Int32(truncatingIfNeeded: pixel)
    words[count] = word
    outside[count] = UInt8(truncatingIfNeeded: mask)
    count &+= 1
    if count == capacity { write() }
  }

  /// Keeps the smaller word at each pixel listed and not left out.
  mutating func write() {
    for k in 0..<count {
      let first = buffer + Int(pixels[k])
      let next = first + widthPixels
      let word = words[k]
      let mask = UInt64(outside[k])
      // A pixel left out compares the largest word, so it writes nothing.
      let w0 = word | (0 &- (mask & 1))
      let w1 = word | (0 &- (mask >> 1 & 1))
      let w2 = word | (0 &- (mask >> 2 & 1))
      let w3 = word | (0 &- (mask >> 3 & 1))
      if w0 < first[0] { first[0] = w0 }
      if w1 < first[1] { first[1] = w1 }
      if w2 < next[0] { next[0] = w2 }
      if w3 < next[1] { next[1] = w3 }
    }
    count = 0
  }

  /// Writes what is listed and releases the lists.
  mutating func finish() {
    write()
    pixels.deallocate()
    words.deallocate()
    outside.deallocate()
  }
}
