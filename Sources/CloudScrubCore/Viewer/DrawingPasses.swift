/// What a frame-loop turn draws of the scene, so that the scene is drawn only when it
/// changed and a large one appears within a frame time and then refines.
///
/// The loop hands in a signature of everything the picture depends on (the viewer
/// state, the points loaded, the preview…) each turn. A new signature starts a new
/// plan at its first pass; an unchanged one gets the plan's next pass, drawn over the
/// picture so far, until every pass is drawn; after that, nothing. A plan is either a
/// `DrawPlan` (every k-th frame a pass, whole-store ranges) or an `LODPlan` (nodes of a
/// `PointOctree` by projected size, node ranges); both cut the shown points into
/// passes within the budget that together draw each point once.
public struct DrawingPasses<Signature: Equatable> {
  /// One turn's work.
  public enum Step: Equatable {
    /// Draw these point ranges; `continuing`: over the previous pass's picture.
    case draw(pass: [Range<Int>], continuing: Bool, points: Int)
    /// Draw these ranges of level-of-detail nodes; `continuing` as for `draw`.
    case drawNodes(pass: [LODDrawItem], continuing: Bool, points: Int)
    /// The picture is complete and still right.
    case idle
  }

  public var budget: PointBudget
  /// Points a pass may hold, fixed (a benchmark, say); nil follows `budget`.
  public var fixedBudgetPoints: Int?
  /// The frame plan of the current picture, when it is drawn by frames.
  public private(set) var plan: DrawPlan?
  /// The level-of-detail plan of the current picture, when it is drawn by nodes.
  public private(set) var lodPlan: LODPlan?
  /// Passes of `plan` drawn so far.
  public private(set) var passesDrawn = 0
  /// Points in the passes drawn so far.
  private var pointsDrawn = 0
  private var signature: Signature?

  public init(budget: PointBudget = PointBudget(), fixedBudgetPoints: Int? = nil) {
    self.budget = budget
    self.fixedBudgetPoints = fixedBudgetPoints
  }

  /// Points a pass may hold now.
  public var budgetPoints: Int { fixedBudgetPoints ?? budget.points }

  /// Whether passes are left to draw for the current signature.
  public var hasPassesLeft: Bool { passesDrawn < passCount }

  /// Points drawn so far of the current picture, and how many it shows in all.
  public var progress: (drawn: Int, total: Int) {
    (pointsDrawn, plan?.totalPoints ?? lodPlan?.totalPoints ?? 0)
  }

  private var passCount: Int { plan?.passCount ?? lodPlan?.passCount ?? 0 }

  /// The work for this turn.
  ///
  /// - Parameter makePlan: the plan for the scene as it is now, given the budget
  ///   (called only when the signature changed).
  public mutating func step(for current: Signature, makePlan: (Int) -> DrawPlan) -> Step {
    if current != signature || plan == nil {
      signature = current
      let fresh = makePlan(budgetPoints)
      plan = fresh
      lodPlan = nil
      passesDrawn = 1
      let pass = fresh.ranges(ofPass: 0)
      pointsDrawn = pass.reduce(0) { $0 + $1.count }
      return .draw(pass: pass, continuing: false, points: pointsDrawn)
    }
    guard let plan, passesDrawn < plan.passCount else { return .idle }
    let pass = plan.ranges(ofPass: passesDrawn)
    passesDrawn += 1
    let points = pass.reduce(0) { $0 + $1.count }
    pointsDrawn += points
    return .draw(pass: pass, continuing: true, points: points)
  }

  /// The work for this turn, drawn by level-of-detail nodes.
  ///
  /// - Parameter makePlan: the plan for the scene as it is now, given the budget
  ///   (called only when the signature changed).
  public mutating func step(for current: Signature, makeLODPlan makePlan: (Int) -> LODPlan)
    -> Step
  {
    if current != signature || lodPlan == nil {
      signature = current
      let fresh = makePlan(budgetPoints)
      lodPlan = fresh
      plan = nil
      passesDrawn = 1
      let pass = fresh.items(ofPass: 0)
      pointsDrawn = fresh.pointCount(ofPass: 0)
      return .drawNodes(pass: pass, continuing: false, points: pointsDrawn)
    }
    guard let lodPlan, passesDrawn < lodPlan.passCount else { return .idle }
    let pass = lodPlan.items(ofPass: passesDrawn)
    let points = lodPlan.pointCount(ofPass: passesDrawn)
    passesDrawn += 1
    pointsDrawn += points
    return .drawNodes(pass: pass, continuing: true, points: points)
  }

  /// Learns how fast a pass was drawn, for the next plans' budget.
  public mutating func record(points: Int, seconds: Double) {
    budget.record(points: points, seconds: seconds)
  }

  /// Forgets the picture: the next turn draws from the first pass whatever the
  /// signature (the output was lost, or a new document opened).
  public mutating func invalidate() {
    signature = nil
    plan = nil
    lodPlan = nil
    passesDrawn = 0
    pointsDrawn = 0
  }
}
