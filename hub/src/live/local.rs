//! Single mode: this hub orders each room's events itself and keeps their history in
//! SQLite ([`Store`]). An event is decided, written, applied and fanned out under the room
//! lock: one lock, one order.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use protocol::frame::Event;
use protocol::state::AttendeeSummary;
use protocol::ConnectionState;

use super::room::{Audience, Change, DueSnapshot, Inner, Order, Room, RoomSettings};
use crate::store::{Store, StoreError, StoredEvent};

/// The [`Order`] of single mode.
pub struct LocalOrder {
    store: Arc<Store>,
}

impl LocalOrder {
    pub fn new(store: Arc<Store>) -> Arc<LocalOrder> {
        Arc::new(LocalOrder { store })
    }

    /// Opens a room from SQLite: the latest snapshot with the events after it applied.
    /// Participants who were connected when the hub stopped are marked lost (nobody is
    /// connected to a hub that just started), before anyone can find the room.
    pub fn open_room(
        self: &Arc<Self>,
        appointment_id: String,
        settings: &RoomSettings,
    ) -> Result<Room, StoreError> {
        let new_epoch = format!("{:016x}", rand::random::<u64>());
        let stored =
            self.store
                .load_or_create(&appointment_id, &new_epoch, settings.retained_events)?;
        let room = Room::from_stored(appointment_id, settings, self.clone(), stored);
        let stale: Vec<AttendeeSummary> = room
            .lock()
            .live()
            .participants
            .values()
            .filter(|p| p.connection != ConnectionState::Lost)
            .map(|p| AttendeeSummary::clone(p))
            .collect();
        for mut attendee in stale {
            attendee.connection = ConnectionState::Lost;
            self.commit_now(
                &room,
                Box::new(|_: &mut Inner| {
                    Some((Audience::Guides, Event::AttendeeChanged { attendee }))
                }),
            )?;
        }
        Ok(room)
    }

    /// Decides, stores, applies and fans out under the room lock; the snapshot that falls
    /// due is written once the lock is released (serialising the participants of a large
    /// room under it would hold up every other event and join).
    fn commit_now(&self, room: &Room, change: Change<'_>) -> Result<Option<u64>, StoreError> {
        let mut inner = room.lock();
        let Some((audience, event)) = change(&mut inner) else {
            return Ok(None);
        };
        let stored = StoredEvent {
            seq: inner.seq + 1,
            audience,
            event,
        };
        self.store.append(&room.appointment_id, &stored)?;
        let seq = stored.seq;
        let due = room.apply_and_fan_out(&mut inner, stored);
        drop(inner);
        if let Some(due) = due {
            self.write_snapshot(room, due);
        }
        Ok(Some(seq))
    }

    fn write_snapshot(&self, room: &Room, due: DueSnapshot) {
        let (seq, state) = due.into_state();
        // The events are stored already; a failed snapshot only makes the next start
        // replay more of them.
        if let Err(error) =
            self.store
                .snapshot(&room.appointment_id, seq, &state, room.retained_events)
        {
            tracing::warn!(%error, appointment_id = %room.appointment_id, "could not write a snapshot");
        }
    }
}

impl Order for LocalOrder {
    fn open(
        self: Arc<Self>,
        appointment_id: String,
        settings: RoomSettings,
    ) -> BoxFuture<'static, Result<Room, StoreError>> {
        Box::pin(std::future::ready(
            self.open_room(appointment_id, &settings),
        ))
    }

    fn catch_up<'a>(&'a self, _room: &'a Room) -> BoxFuture<'a, Result<(), StoreError>> {
        // Every event of this room was ordered here.
        Box::pin(std::future::ready(Ok(())))
    }

    fn commit<'a>(
        &'a self,
        room: &'a Room,
        change: Change<'a>,
    ) -> BoxFuture<'a, Result<Option<u64>, StoreError>> {
        // Committed before the future is made: nothing here awaits, and the room lock is
        // released before this returns.
        Box::pin(std::future::ready(self.commit_now(room, change)))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU16, Ordering};

    use protocol::frame::{close_code, Resume, ServerFrame};
    use protocol::live_state::cases;
    use protocol::{CartPermission, HubClaims, Role};

    use super::*;
    use crate::live::outbound::Queued;
    use crate::live::queue;
    use crate::live::room::{PARTICIPANTS_PER_FRAME, SNAPSHOT_EVERY};

    fn claims(id: char, role: Role) -> HubClaims {
        HubClaims {
            sub: id.to_string().repeat(32),
            apt: "0".repeat(32),
            role,
            name: None,
            exp: u64::MAX,
        }
    }

    fn slide(alias: u32) -> Event {
        Event::SlideSwitched {
            page_id: "a".repeat(32),
            section_id: "b".repeat(32),
            slide_alias: alias,
        }
    }

    #[tokio::test]
    async fn a_full_queue_drops_the_slow_subscriber_and_spares_the_others() {
        let settings = RoomSettings {
            retained_events: 16,
            metrics: Arc::default(),
        };
        let room = LocalOrder::new(Arc::new(Store::in_memory().unwrap()))
            .open_room("0".repeat(32), &settings)
            .unwrap();
        let (slow_tx, mut slow_rx) = queue::channel(2);
        let slow_reason = Arc::new(AtomicU16::new(0));
        room.attach(
            1,
            &claims('s', Role::Client),
            None,
            None,
            slow_tx,
            slow_reason.clone(),
            1000,
        )
        .expect("admitted");
        let (fast_tx, mut fast_rx) = queue::channel(64);
        room.attach(
            2,
            &claims('f', Role::Client),
            None,
            None,
            fast_tx,
            Arc::default(),
            1000,
        )
        .expect("admitted");

        for alias in 1..=5 {
            room.publish(Audience::Everyone, slide(alias))
                .await
                .unwrap();
        }
        assert_eq!(
            slow_reason.load(Ordering::Relaxed),
            close_code::SLOW_CONSUMER
        );
        assert_eq!(room.subscriber_count(), 1);
        // The slow one gets what fit in its queue, then the end of the queue.
        let mut slow = Vec::new();
        while let Some(outbound) = slow_rx.try_recv() {
            slow.push(outbound.item);
        }
        assert_eq!(slow.len(), 2);
        assert!(slow_rx.try_recv().is_none());
        // The fast one got all five, chained by prev.
        let mut prev = 0;
        for alias in 1..=5 {
            match fast_rx.try_recv().expect("an item").item {
                Queued::Event {
                    seq,
                    prev: p,
                    event,
                } => {
                    assert_eq!(p, prev);
                    assert_eq!(event.event, slide(alias));
                    prev = seq;
                }
                Queued::Volatile(_) | Queued::Flush => panic!("unexpected volatile event or flush"),
            }
        }
    }

    #[tokio::test]
    async fn a_guide_gets_a_large_room_in_pages_that_add_up_to_the_snapshot() {
        let settings = RoomSettings {
            retained_events: 16,
            metrics: Arc::default(),
        };
        let room = LocalOrder::new(Arc::new(Store::in_memory().unwrap()))
            .open_room("0".repeat(32), &settings)
            .unwrap();
        let total = 2 * PARTICIPANTS_PER_FRAME + 34;
        for i in 0..total {
            let claims = HubClaims {
                sub: format!("{i:032x}"),
                apt: "0".repeat(32),
                role: Role::Client,
                name: None,
                exp: u64::MAX,
            };
            room.set_presence(&claims, true).await.unwrap();
            if i % 3 == 0 {
                room.set_presence(&claims, false).await.unwrap();
            }
        }
        let guide = claims('g', Role::Guide);
        room.set_presence(&guide, true).await.unwrap();

        let (tx, _rx) = queue::channel(8);
        let attached = room
            .attach(1, &guide, None, None, tx, Arc::default(), 1000)
            .expect("admitted");
        let ServerFrame::Welcome {
            snapshot: Some(snapshot),
            participant_pages,
            ..
        } = attached.welcome
        else {
            panic!("a welcome with a snapshot")
        };
        let guides = snapshot.state_for_guides.unwrap();
        assert_eq!(
            guides.guides.len() + guides.clients.len() + guides.inactive_clients.len(),
            PARTICIPANTS_PER_FRAME
        );
        assert!(
            guides.guides.contains_key(&"g".repeat(32)),
            "guides come first"
        );
        // 1,035 participants: 500 in the welcome, then pages of 500 and 35.
        assert_eq!(participant_pages, Some(2));
        assert_eq!(attached.pages.len(), 2);
        let mut seen: Vec<String> = guides
            .guides
            .keys()
            .chain(guides.clients.keys())
            .chain(guides.inactive_clients.keys())
            .cloned()
            .collect();
        for (n, frame) in attached.pages.into_iter().enumerate() {
            let ServerFrame::Participants {
                page,
                pages,
                participants,
            } = frame
            else {
                panic!("a page")
            };
            assert_eq!((page, pages), (n as u32 + 1, 2));
            assert!(participants.len() <= PARTICIPANTS_PER_FRAME);
            seen.extend(participants.into_iter().map(|p| p.attendee_id));
        }
        let before = seen.len();
        seen.sort();
        seen.dedup();
        assert_eq!(
            (before, seen.len()),
            (total + 1, total + 1),
            "everyone once"
        );
        // The full view is unchanged, and a client's welcome has no pages.
        let full = room.snapshot(Role::Guide, None).state_for_guides.unwrap();
        assert_eq!(
            full.clients.len() + full.inactive_clients.len() + full.guides.len(),
            total + 1
        );
        let (tx, _rx) = queue::channel(8);
        let client = room
            .attach(
                2,
                &claims('c', Role::Client),
                None,
                None,
                tx,
                Arc::default(),
                1000,
            )
            .expect("admitted");
        assert!(client.pages.is_empty());
        assert!(matches!(
            client.welcome,
            ServerFrame::Welcome {
                participant_pages: None,
                ..
            }
        ));
    }

    /// A reconnect storm (every attendee of a draining replica leaving and coming back)
    /// writes two presence events per attendee, far more than the configured window:
    /// an attendee who was connected just before must still resume by replay.
    #[tokio::test]
    async fn a_resume_after_a_reconnect_storm_replays_in_a_room_bigger_than_the_window() {
        let settings = RoomSettings {
            retained_events: 16,
            metrics: Arc::default(),
        };
        let room = LocalOrder::new(Arc::new(Store::in_memory().unwrap()))
            .open_room("0".repeat(32), &settings)
            .unwrap();
        let attendees: Vec<HubClaims> = (0..40)
            .map(|i| HubClaims {
                sub: format!("{i:032x}"),
                apt: "0".repeat(32),
                role: Role::Client,
                name: None,
                exp: u64::MAX,
            })
            .collect();
        for claims in &attendees {
            room.set_presence(claims, true).await.unwrap();
        }
        let (epoch, last_seq, _) = room.current();
        for claims in &attendees {
            room.set_presence(claims, false).await.unwrap();
            room.set_presence(claims, true).await.unwrap();
        }
        room.publish(Audience::Everyone, slide(7)).await.unwrap();
        let (_, seq, _) = room.current();
        assert!(
            seq - last_seq > 16,
            "the storm wrote more events than the configured window"
        );

        let (tx, _rx) = queue::channel(8);
        let attached = room
            .attach(
                1,
                &attendees[0],
                Some(last_seq),
                Some(&epoch),
                tx,
                Arc::default(),
                1000,
            )
            .expect("admitted");
        assert!(matches!(
            attached.welcome,
            ServerFrame::Welcome {
                resume: Resume::Replayed,
                snapshot: None,
                ..
            }
        ));
        // The presence events are the guides'; the attendee is replayed the slide change.
        assert_eq!(attached.replay.len(), 1);
        let ServerFrame::Event {
            seq: replayed,
            prev,
            event,
        } = &attached.replay[0]
        else {
            panic!("an event")
        };
        assert_eq!((*replayed, *prev, event), (seq, last_seq, &slide(7)));
    }

    #[tokio::test]
    async fn a_small_room_fits_the_welcome() {
        let settings = RoomSettings {
            retained_events: 16,
            metrics: Arc::default(),
        };
        let room = LocalOrder::new(Arc::new(Store::in_memory().unwrap()))
            .open_room("0".repeat(32), &settings)
            .unwrap();
        room.set_presence(&claims('a', Role::Client), true)
            .await
            .unwrap();
        let (tx, _rx) = queue::channel(8);
        let attached = room
            .attach(
                1,
                &claims('g', Role::Guide),
                None,
                None,
                tx,
                Arc::default(),
                1000,
            )
            .expect("admitted");
        assert!(attached.pages.is_empty());
        assert!(matches!(
            attached.welcome,
            ServerFrame::Welcome {
                participant_pages: None,
                ..
            }
        ));
    }

    #[tokio::test]
    async fn a_client_sees_its_own_cart_permission_refused_apart_from_never_asked() {
        let settings = RoomSettings {
            retained_events: 16,
            metrics: Arc::default(),
        };
        let room = LocalOrder::new(Arc::new(Store::in_memory().unwrap()))
            .open_room("0".repeat(32), &settings)
            .unwrap();
        let (ada, bob) = (claims('a', Role::Client), claims('b', Role::Client));
        room.set_presence(&ada, true).await.unwrap();
        room.set_presence(&bob, true).await.unwrap();
        let own = |who: &HubClaims| {
            room.snapshot(Role::Client, Some(&who.sub))
                .state_for_clients
                .cart_permission
        };
        assert_eq!(
            (own(&ada), own(&bob)),
            (CartPermission::Missing, CartPermission::Missing)
        );
        let change = |permission| Event::CartPermissionChanged {
            attendee_id: ada.sub.clone(),
            permission,
        };
        room.publish(
            Audience::Attendee(ada.sub.clone()),
            change(CartPermission::Requested),
        )
        .await
        .unwrap();
        assert_eq!(
            (own(&ada), own(&bob)),
            (CartPermission::Requested, CartPermission::Missing)
        );
        room.publish(
            Audience::Attendee(ada.sub.clone()),
            change(CartPermission::Refused),
        )
        .await
        .unwrap();
        assert_eq!(
            (own(&ada), own(&bob)),
            (CartPermission::Refused, CartPermission::Missing)
        );
        // And in the welcome of a new connection.
        let (tx, _rx) = queue::channel(8);
        let attached = room
            .attach(1, &ada, None, None, tx, Arc::default(), 1000)
            .expect("admitted");
        let ServerFrame::Welcome {
            snapshot: Some(snapshot),
            ..
        } = attached.welcome
        else {
            panic!("a snapshot")
        };
        assert_eq!(
            snapshot.state_for_clients.cart_permission,
            CartPermission::Refused
        );
    }

    #[tokio::test]
    async fn private_events_reach_only_their_attendee_and_guides() {
        let settings = RoomSettings {
            retained_events: 16,
            metrics: Arc::default(),
        };
        let room = LocalOrder::new(Arc::new(Store::in_memory().unwrap()))
            .open_room("0".repeat(32), &settings)
            .unwrap();
        let mut receivers = Vec::new();
        for (n, (id, role)) in [('g', Role::Guide), ('a', Role::Client), ('b', Role::Client)]
            .into_iter()
            .enumerate()
        {
            let (tx, rx) = queue::channel(8);
            room.attach(
                n as u64,
                &claims(id, role),
                None,
                None,
                tx,
                Arc::default(),
                1000,
            )
            .expect("admitted");
            receivers.push(rx);
        }
        let action = protocol::action::Action::LoadCart { attendee_id: None };
        room.publish(Audience::Attendee("a".repeat(32)), Event::Reload { action })
            .await
            .unwrap();
        let got: Vec<bool> = receivers
            .iter_mut()
            .map(|rx| rx.try_recv().is_some())
            .collect();
        assert_eq!(got, [true, true, false]);
        // A participant event is for the guides only.
        room.publish(
            Audience::Guides,
            Event::AttendeeRemoved {
                attendee_id: "c".repeat(32),
            },
        )
        .await
        .unwrap();
        let got: Vec<bool> = receivers
            .iter_mut()
            .map(|rx| rx.try_recv().is_some())
            .collect();
        assert_eq!(got, [true, false, false]);
        // And everyone gets the next slide, the guide's `prev` chaining over the private events.
        room.publish(Audience::Everyone, slide(1)).await.unwrap();
        let prevs: Vec<u64> = receivers
            .iter_mut()
            .map(|rx| match rx.try_recv().expect("the slide").item {
                Queued::Event { prev, .. } => prev,
                Queued::Volatile(_) | Queued::Flush => panic!("unexpected volatile event or flush"),
            })
            .collect();
        assert_eq!(prevs, [2, 1, 0]);
    }

    #[tokio::test]
    async fn a_large_room_snapshots_after_as_many_events_as_it_has_participants() {
        let settings = RoomSettings {
            retained_events: 16,
            metrics: Arc::default(),
        };
        let store = Arc::new(Store::in_memory().unwrap());
        let id = "0".repeat(32);
        let room = LocalOrder::new(store.clone())
            .open_room(id.clone(), &settings)
            .unwrap();
        let snapshot_seq = || {
            store
                .load_or_create(&id, "unused", 16)
                .unwrap()
                .snapshot_seq
        };
        // 600 joins: one snapshot after the first 256 events, then none while the room
        // grows as fast as its events (each would hold every participant).
        for i in 0..600 {
            let claims = HubClaims {
                sub: format!("{i:032x}"),
                apt: id.clone(),
                role: Role::Client,
                name: None,
                exp: u64::MAX,
            };
            room.set_presence(&claims, true).await.unwrap();
        }
        assert_eq!(snapshot_seq(), SNAPSHOT_EVERY);
        // The next one after as many events as there are participants.
        for alias in 601..856 {
            room.publish(Audience::Everyone, slide(alias))
                .await
                .unwrap();
        }
        assert_eq!(snapshot_seq(), SNAPSHOT_EVERY);
        room.publish(Audience::Everyone, slide(856)).await.unwrap();
        assert_eq!(snapshot_seq(), SNAPSHOT_EVERY + 600);
        // What a restart loads: that snapshot and the events after it, the same state
        // (the participants then marked lost, as nobody is connected to a new hub).
        let reopened = LocalOrder::new(store.clone())
            .open_room(id.clone(), &settings)
            .unwrap();
        assert_eq!(reopened.state_for_all(), room.state_for_all());
        assert_eq!(reopened.state_for_all().current_slide_alias, 856);
        let guides = reopened
            .snapshot(Role::Guide, None)
            .state_for_guides
            .unwrap();
        assert_eq!(
            (guides.clients.len(), guides.inactive_clients.len()),
            (0, 600)
        );
    }

    #[tokio::test]
    async fn a_removal_survives_in_the_snapshot_once_its_event_is_forgotten() {
        let settings = RoomSettings {
            retained_events: 16,
            metrics: Arc::default(),
        };
        let store = Arc::new(Store::in_memory().unwrap());
        let id = "0".repeat(32);
        let room = LocalOrder::new(store.clone())
            .open_room(id.clone(), &settings)
            .unwrap();
        let ada = claims('a', Role::Client);
        room.publish(
            Audience::Everyone,
            Event::AttendeeRemoved {
                attendee_id: ada.sub.clone(),
            },
        )
        .await
        .unwrap();
        // Enough events for a snapshot, after which the removal's event is deleted.
        for alias in 1..SNAPSHOT_EVERY as u32 {
            room.publish(Audience::Everyone, slide(alias))
                .await
                .unwrap();
        }
        let stored = store.load_or_create(&id, "unused", 16).unwrap();
        assert_eq!(stored.snapshot_seq, SNAPSHOT_EVERY);
        assert!(
            stored
                .events
                .iter()
                .all(|e| !matches!(e.event, Event::AttendeeRemoved { .. })),
            "only the snapshot knows"
        );
        let reopened = LocalOrder::new(store.clone())
            .open_room(id.clone(), &settings)
            .unwrap();
        let (tx, _rx) = queue::channel(8);
        let refused = reopened
            .attach(1, &ada, None, None, tx, Arc::default(), 1000)
            .err();
        assert_eq!(refused.map(|t| t.close_code), Some(close_code::REMOVED));
    }

    /// The golden cases the web replays (`web/src/protocol/live-state-cases.json`), run
    /// through a real room: its snapshots before and after must be the cases' own.
    #[tokio::test]
    async fn a_room_plays_the_golden_cases_of_the_live_state() {
        for case in cases::all() {
            let settings = RoomSettings {
                retained_events: 64,
                metrics: Arc::default(),
            };
            let room = LocalOrder::new(Arc::new(Store::in_memory().unwrap()))
                .open_room("0".repeat(32), &settings)
                .unwrap();
            let rendered = case.render();
            let view = || room.snapshot(case.seen.role(), Some(case.seen.attendee_id()));
            for (audience, event) in case.setup.clone() {
                room.publish(audience, event).await.unwrap();
            }
            assert_eq!(view(), rendered.before, "before: {}", case.name);
            // Subscribed as the case's viewer: it is sent exactly the case's events.
            let (tx, mut rx) = queue::channel(64);
            let claims = HubClaims {
                sub: case.seen.attendee_id().into(),
                apt: "0".repeat(32),
                role: case.seen.role(),
                name: None,
                exp: u64::MAX,
            };
            room.attach(1, &claims, None, None, tx, Arc::default(), 1000)
                .expect("admitted");
            for (audience, event) in case.events.clone() {
                room.publish(audience, event).await.unwrap();
            }
            let mut sent = Vec::new();
            while let Some(outbound) = rx.try_recv() {
                match outbound.item {
                    Queued::Event { event, .. } => sent.push(event.event.clone()),
                    Queued::Volatile(_) | Queued::Flush => {
                        panic!("unexpected volatile event or flush")
                    }
                }
            }
            assert_eq!(sent, rendered.events, "sent: {}", case.name);
            assert_eq!(view(), rendered.after, "after: {}", case.name);
        }
    }
}
