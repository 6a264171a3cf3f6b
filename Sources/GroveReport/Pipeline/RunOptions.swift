/// What a `run` or `validate` is asked to do.
public struct RunOptions: Sendable {
    /// Files, directories or `-`; empty means `SampleData/`.
    public var inputs: [String]
    /// Where reports go; nil writes none (a `validate` without `--out`).
    public var outputDirectory: String?
    public var configuration: Configuration?
    /// The `--config` path as given, recorded by `--state` runs.
    public var configurationPath: String?
    /// `--state FILE`: the SQLite state of incremental runs.
    public var statePath: String?
    /// With a state, new inputs are read and merged in batches of about this many compressed
    /// bytes, so memory follows the batch, not the run (`--batch-mb`).
    public var stateBatchBytes = 256 << 20
    public var previewScope: PreviewScope
    /// Worker threads; at least 1.
    public var jobs: Int
    /// How many partitions by key the merge and the joins deal to the threads, at most 16 (the
    /// symbol table's shards; more count as 16); nil for 16. Any number gives the same reports.
    var partitions: Int?
    /// The share of rejected lines above which the run fails (exit 1).
    public var maxRejectRate: Double
    /// Whether `rejects.ndjson` carries the redacted raw line.
    public var rejectsRaw: Bool
    /// How long to wait for another run to release the output directory or the state.
    public var lockWaitSeconds: Double = 0
    /// What inflates gzip input (`--inflate`); the reports are the same either way.
    public var inflate: InflateBackend = .zlib
    /// A report names at most this many campaigns and sums the rest (`--max-campaigns`, `CampaignFold`).
    public var maxCampaigns = RunOptions.defaultMaxCampaigns
    /// `--conversion-window HOURS`, `--bind-window DAYS` (SPEC section 10.1); none by default.
    public var windows = AnalysisWindows()
    /// T of the always-valid interval: the total units at which it is tightest (`--sequential-tuning`).
    public var sequentialTuning = RunOptions.defaultSequentialTuning

    /// `partitions`, or one a shard: each of the largest worker's shards then becomes a partition
    /// as it is, and threads finishing early find more work.
    var partitionCount: Int { partitions ?? SymbolTable.shardCount }

    public static let defaultInputs = ["SampleData"]
    public static let defaultOutputDirectory = "Reports"
    public static let defaultMaxRejectRate = 0.01
    public static let defaultMaxCampaigns = CampaignFold.defaultMaximum
    public static let defaultSequentialTuning = SequentialInterval.defaultTuning

    public init(
        inputs: [String] = [], outputDirectory: String? = RunOptions.defaultOutputDirectory,
        configuration: Configuration? = nil, previewScope: PreviewScope = .unit, jobs: Int = 1,
        maxRejectRate: Double = RunOptions.defaultMaxRejectRate, rejectsRaw: Bool = false
    ) {
        self.inputs = inputs
        self.outputDirectory = outputDirectory
        self.configuration = configuration
        self.previewScope = previewScope
        self.jobs = jobs
        self.maxRejectRate = maxRejectRate
        self.rejectsRaw = rejectsRaw
    }
}
