/// Everything one worker learns from its share of the input: the accounting and the partial
/// states of attribution and exposure, with the symbol table their events were interned into.
/// Partials merge in any order to the same whole; `joined` turns the whole into the `JoinedState`
/// that results are built from.
struct PartialState: WorkerState {
    var symbols = SymbolTable()
    var accounting = Accounting()
    var attribution = AttributionState()
    var exposure = ExposureState()
    var joins = JoinState()
    /// Rejected lines, held here only by the stage commands (`run` spools them to disk instead).
    var rejects: [RejectRecord] = []

    init() {}

    /// Routes an accepted event (interned into `symbols`) to the analysis that uses it.
    mutating func add(_ event: Event) {
        if event.isAttribution {
            attribution.add(event, symbols: symbols)
        } else {
            exposure.add(event, symbols: symbols)
        }
    }

    /// Starts reading the index entry `add(event)` will look up: in stores of millions of keys
    /// that read is a cache miss, which then overlaps with the next line's work (`EventLookahead`).
    func prefetch(_ event: Event) {
        if event.isAttribution {
            attribution.prefetch(event)
        } else {
            exposure.prefetch(event)
        }
    }

    /// Merges `other` in, releasing each of its parts as soon as it is merged, so that merging two
    /// large partials needs little more memory than the merged result. Attribution and the rest
    /// touch disjoint stores and merge on two threads.
    mutating func merge(_ other: consuming PartialState) {
        let translation = take(&other.symbols, SymbolTable()).translation(into: &symbols, threads: 2)
        accounting.merge(other.accounting)
        rejects += other.rejects
        mergeStores(of: &other, through: translation)
    }

    /// Merges the stores of `other` in, their symbols taken to this state's by `translation`,
    /// releasing each as it is merged: attribution on one thread, exposure and the joins' records
    /// (disjoint stores) on the other. `merge`, and sealing a night's texts (`TextSealing`).
    mutating func mergeStores(of other: inout PartialState, through translation: SymbolTranslation) {
        let symbols = self.symbols
        var attribution = take(&self.attribution, AttributionState())
        var otherAttribution = take(&other.attribution, AttributionState())
        var exposure = take(&self.exposure, ExposureState())
        var otherExposure = take(&other.exposure, ExposureState())
        var joins = take(&self.joins, JoinState())
        var otherJoins = take(&other.joins, JoinState())
        Parallel.both {
            attribution.merge(take(&otherAttribution, AttributionState()), translation, symbols: symbols)
        } and: {
            exposure.merge(take(&otherExposure, ExposureState()), translation, symbols: symbols)
            joins.merge(take(&otherJoins, JoinState()), translation, symbols: symbols)
        }
        self.attribution = attribution
        self.exposure = exposure
        self.joins = joins
    }
}
