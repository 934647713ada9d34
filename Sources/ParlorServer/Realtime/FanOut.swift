import ParlorStore

/// Where a committed change goes: this node's connections (`hub`) and the other nodes (`bus`);
/// for messages also the members' open apps (`deliveries`, run after the sender's call) and the
/// note of how far this node fanned out each conversation (`tracker`, for cluster catch-up); and
/// the pushes to members' devices (`pushes`, queued only where a change happened, so that a
/// cluster pushes it once).
///
/// One value, so that a service that sends changes out asks for one collaborator, not four.
struct FanOut: Sendable {
    let hub: Hub
    let bus: any ClusterBus
    let tracker: FanOutTracker
    let deliveries: AppDeliveries
    let pushes: PushDeliveries
}
