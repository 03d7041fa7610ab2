/// One partition's points of a frame (`VoxelFrameKeys` says which), gathered a few
/// dozen at a time so that their
/// voxels' table slots are read together: the reads do not depend on each other, so
/// the processor has them all in flight at once instead of waiting for each in turn
/// (the voxel merges spend most of their time waiting for these reads). The voxels are
/// then numbered in input order, exactly as one lookup a point would number them.
///
/// A point in the same voxel as the point before it (neighbouring pixels often are)
/// takes that point's number without a lookup.
struct VoxelLookupBatch {
  /// Points gathered before a batch is numbered.
  static let capacity = 64

  /// Points gathered so far.
  private(set) var count = 0
  private var keys: [WideVoxelKeying.Key]
  private var hashes: [UInt64]
  /// Each point's index in its frame and its position in the merge's input.
  private(set) var points: [Int]
  private(set) var inputPositions: [Int]
  /// Whether each point is in the voxel of the point gathered before it.
  private var repeats: [Bool]
  /// After `number(in:)`: each point's voxel number, and whether it reached it first.
  private(set) var numbers: [Int]
  private(set) var isNew: [Bool]
  /// The number of the last point numbered, for a repeat at a batch's start.
  private var lastNumber = -1
  /// What the early slot reads gave, kept so that the reads are not left out.
  private(set) var touched: Int = 0

  /// An empty batch.
  init() {
    let zero = WideVoxelKeying.Key(x: 0, y: 0, z: 0)
    keys = Array(repeating: zero, count: Self.capacity)
    hashes = Array(repeating: 0, count: Self.capacity)
    points = Array(repeating: 0, count: Self.capacity)
    inputPositions = Array(repeating: 0, count: Self.capacity)
    repeats = Array(repeating: false, count: Self.capacity)
    numbers = Array(repeating: 0, count: Self.capacity)
    isNew = Array(repeating: false, count: Self.capacity)
  }

  /// Whether the batch is full and must be numbered before the next `offer`.
  var isFull: Bool { count == Self.capacity }

  /// Adds the point at `point` of its frame (`inputPosition` in the merge's input),
  /// which `keys` gave to this partition.
  @inline(__always)
  mutating func take(_ point: Int, of keys: VoxelFrameKeys.Buffers, inputPosition: Int) {
    self.keys[count] = keys.keys[point]
    hashes[count] = keys.hashes[point]
    repeats[count] = keys.repeats[point]
    points[count] = point
    inputPositions[count] = inputPosition
    count += 1
  }

  /// Numbers the gathered points' voxels in order; `numbers` and `isNew` then hold
  /// them until `clear()`.
  ///
  /// - Throws: `VoxelAccumulatorError.tooManyVoxels` past the index's limit.
  mutating func number(in index: inout VoxelIndex) throws(VoxelAccumulatorError) {
    // A loop of reads alone, so that they are all in flight together.
    var touched = 0
    for j in 0..<count where !repeats[j] { touched &+= index.slotNumber(atHomeOf: hashes[j]) }
    self.touched &+= touched
    var previous = lastNumber
    for j in 0..<count {
      if repeats[j] {
        numbers[j] = previous
        isNew[j] = false
      } else {
        let (number, new) = try index.number(of: keys[j], hash: hashes[j])
        numbers[j] = number
        isNew[j] = new
        previous = number
      }
    }
    lastNumber = previous
  }

  /// Empties the batch for the next points of the same stream.
  mutating func clear() { count = 0 }
}
