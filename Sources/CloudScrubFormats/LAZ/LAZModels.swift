/// The adaptive probability models of LASzip's arithmetic coder: a model counts the
/// symbols it has seen and, every so often (more seldom as it learns), turns the counts
/// into the cumulative distribution the coder divides its interval by.
///
/// A model is a handful of pointers into its chunk's `LAZArena`, so passing one around
/// costs no reference counting and updating it no exclusivity check. A model belongs to
/// one chunk's decoder, on one thread, and lives as long as the arena.
struct LAZSymbolModel {
  /// Probabilities are held in 15 bits.
  static let lengthShift: UInt32 = 15
  static let maxCount: UInt32 = 1 << 15

  let symbols: UInt32
  let lastSymbol: UInt32
  /// log2 of the lookup table's size (0: no table, a binary search over all symbols).
  let tableShift: UInt32
  let tableSize: UInt32
  /// `symbols` distribution words, `symbols` counts, `tableSize + 2` table entries.
  let distribution: UnsafeMutablePointer<UInt32>
  let counts: UnsafeMutablePointer<UInt32>
  let table: UnsafeMutablePointer<UInt32>?
  /// total count, update cycle, symbols until the next update.
  private let state: UnsafeMutablePointer<UInt32>

  /// A model of `symbols` symbols (2…2048), all equally likely at first.
  init(symbols: Int, in arena: LAZArena) {
    precondition(symbols >= 2 && symbols <= 2048)
    self.symbols = UInt32(symbols)
    lastSymbol = UInt32(symbols - 1)
    if symbols > 16 {
      var bits: UInt32 = 3
      while UInt32(symbols) > (1 << (bits + 2)) { bits += 1 }
      tableSize = 1 << bits
      tableShift = Self.lengthShift - bits
    } else {
      tableSize = 0
      tableShift = 0
    }
    let words = 3 + 2 * symbols + (tableSize > 0 ? Int(tableSize) + 2 : 0)
    state = arena.words(words)
    distribution = state + 3
    counts = distribution + symbols
    table = tableSize > 0 ? counts + symbols : nil
    for k in 0..<symbols { counts[k] = 1 }
    state[1] = UInt32(symbols)
    update()
    state[1] = (UInt32(symbols) + 6) >> 1
    state[2] = state[1]
  }

  /// Counts one more `symbol`, and renews the distribution when it is due.
  @inline(__always) func count(_ symbol: UInt32) {
    counts[Int(symbol)] &+= 1
    state[2] &-= 1
    if state[2] == 0 { update() }
  }

  private func update() {
    state[0] &+= state[1]
    if state[0] > Self.maxCount {
      var total: UInt32 = 0
      for k in 0..<Int(symbols) {
        counts[k] = (counts[k] + 1) >> 1
        total &+= counts[k]
      }
      state[0] = total
    }
    let scale = 0x8000_0000 / max(state[0], 1)
    var sum: UInt32 = 0
    if let table {
      var s: UInt32 = 0
      for k in 0..<Int(symbols) {
        distribution[k] = (scale &* sum) >> (31 - Self.lengthShift)
        sum &+= counts[k]
        let w = distribution[k] >> tableShift
        while s < w {
          s += 1
          table[Int(s)] = UInt32(k) &- 1
        }
      }
      table[0] = 0
      while s <= tableSize {
        s += 1
        table[Int(s)] = symbols - 1
      }
    } else {
      for k in 0..<Int(symbols) {
        distribution[k] = (scale &* sum) >> (31 - Self.lengthShift)
        sum &+= counts[k]
      }
    }
    var cycle = (5 * state[1]) >> 2
    let most = (symbols + 6) << 3
    if cycle > most { cycle = most }
    state[1] = cycle
    state[2] = cycle
  }
}

/// A model of one yes/no question: the chance of a 0 in 13 bits.
struct LAZBitModel {
  static let lengthShift: UInt32 = 13
  static let maxCount: UInt32 = 1 << 13

  /// zeros seen, all seen, chance of a zero, update cycle, bits until the next update.
  private let state: UnsafeMutablePointer<UInt32>

  init(in arena: LAZArena) {
    state = arena.words(5)
    state.initialize(from: [1, 2, 1 << (Self.lengthShift - 1), 4, 4], count: 5)
  }

  @inline(__always) var zeroChance: UInt32 { state[2] }

  /// Counts one more bit (a zero when `zero`), and renews the chance when it is due.
  @inline(__always) func count(zero: Bool) {
    if zero { state[0] &+= 1 }
    state[4] &-= 1
    if state[4] == 0 { update() }
  }

  private func update() {
    state[1] &+= state[3]
    if state[1] > Self.maxCount {
      state[1] = (state[1] + 1) >> 1
      state[0] = (state[0] + 1) >> 1
      if state[0] == state[1] { state[1] += 1 }
    }
    let scale = 0x8000_0000 / state[1]
    state[2] = (state[0] &* scale) >> (31 - Self.lengthShift)
    var cycle = (5 * state[3]) >> 2
    if cycle > 64 { cycle = 64 }
    state[3] = cycle
    state[4] = cycle
  }
}

/// The memory of one chunk's models and last values, freed all at once with the arena.
final class LAZArena {
  private var blocks: [UnsafeMutableRawPointer] = []
  private var encoderBlocks: [(UnsafeMutablePointer<LAZArithmeticEncoder>, Int)] = []

  init() {}

  deinit {
    for (encoders, count) in encoderBlocks {
      for index in 0..<count { encoders[index].release() }
    }
    for block in blocks { block.deallocate() }
  }

  /// `count` arithmetic encoders, whose bytes are freed with the arena.
  func encoders(_ count: Int) -> UnsafeMutablePointer<LAZArithmeticEncoder> {
    let encoders = buffer(count, LAZArithmeticEncoder())
    encoderBlocks.append((encoders, count))
    return encoders
  }

  /// `count` values of a plain type (no references), each `value`, that live as long
  /// as the arena.
  func buffer<T>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
    precondition(_isPOD(T.self))
    let block = UnsafeMutableRawPointer.allocate(
      byteCount: max(count, 1) * MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment)
    blocks.append(block)
    return block.initializeMemory(as: T.self, repeating: value, count: count)
  }

  /// `count` models of `symbols` symbols each.
  func models(_ count: Int, symbols: Int) -> UnsafeMutablePointer<LAZSymbolModel> {
    let models = buffer(count, LAZSymbolModel(symbols: symbols, in: self))
    for index in 1..<max(count, 1) { models[index] = LAZSymbolModel(symbols: symbols, in: self) }
    return models
  }

  /// `count` zeroed words.
  func words(_ count: Int) -> UnsafeMutablePointer<UInt32> { buffer(count, 0) }
}
