//! Cluster mode (`REDIS_URL`): Redis assigns each appointment's order and carries events
//! between hub replicas.
//!
//! - `publish` runs one Lua script: `INCR` the appointment's sequence, `XADD` the event to
//!   its stream (the recent log, for resume and failover) and publish it. Redis runs
//!   scripts one at a time and delivers a channel's messages in publish order, so every
//!   replica sees one order.
//! - Publishing uses sharded pub/sub (`SPUBLISH`/`SSUBSCRIBE`, Redis 7.0 and later) where
//!   the server has it, else classic `PUBLISH`/`SUBSCRIBE`. A sharded channel lives on the
//!   node that owns its slot (the appointment's hash tag, like its other keys), so in a
//!   Redis Cluster a message is not broadcast to every node.
//! - Every replica subscribed to an appointment applies its events in that order
//!   (`ClusterOrder::deliver` in `live::replicated`); a gap (a message lost while a connection was down) is filled
//!   from the stream.
//! - A snapshot of the state is kept beside the stream so a replica can open a room
//!   without replaying its whole history.
//! - After a Redis reconnect the subscriptions are restored by the client library and
//!   every open room catches up from the stream; `/healthz` is unhealthy until then.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use protocol::engagement::{Reaction, ReactionCounts};
use protocol::frame::Event;
use protocol::internal::Audience;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::streams::StreamRangeReply;
use redis::{AsyncCommands, PushKind, Script, Value};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use protocol::live_state::LiveState;

use crate::store::{StoreError, StoredEvent, StoredRoom};

/// Where the events Redis hands this replica go: the server passes the rooms' router in,
/// so this module knows nothing of rooms.
pub trait Deliver: Send + Sync {
    /// An event of an appointment, in Redis's order (a gap means messages were lost), with
    /// the epoch it was published in (`None` from a replica of before epochs travelled).
    fn deliver<'a>(
        &'a self,
        appointment_id: &'a str,
        epoch: Option<String>,
        event: StoredEvent,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// After a reconnect: fetches what every open room missed; true when all caught up.
    fn catch_up_all(&self) -> BoxFuture<'_, bool>;
}

/// Refuses (returns -1, changing nothing) when Redis no longer holds what the replica
/// has seen: the epoch key is gone or another (a flush, a restart without its data) or
/// the counter is below the replica's sequence number. Publishing then would hand out
/// numbers replicas already applied, and they would drop the events as duplicates.
const PUBLISH: &str = r#"
if redis.call('GET', KEYS[4]) ~= ARGV[4] then return -1 end
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[5]) then return -1 end
local seq = redis.call('INCR', KEYS[1])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], seq .. '-0', 'e', ARGV[1])
redis.call(ARGV[3], KEYS[3], seq .. '\n' .. ARGV[1])
return seq
"#;

/// After Redis forgot: writes a replica's state back as a new epoch (epoch key, counter,
/// snapshot, an empty stream), unless another replica did so first with a state at
/// least as new. Returns the epoch Redis holds afterwards.
const RESTORE: &str = r#"
local epoch = redis.call('GET', KEYS[1])
local seq = tonumber(redis.call('GET', KEYS[2]) or '0')
if epoch and epoch ~= ARGV[4] and seq >= tonumber(ARGV[2]) then return epoch end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
redis.call('DEL', KEYS[3], KEYS[4])
redis.call('HSET', KEYS[3], 'seq', ARGV[2], 'state', ARGV[3])
return ARGV[1]
"#;

const SNAPSHOT: &str = r#"
local current = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
if tonumber(ARGV[1]) > current then
  redis.call('HSET', KEYS[1], 'seq', ARGV[1], 'state', ARGV[2])
  return 1
end
return 0
"#;

/// An event as it travels through Redis; the sequence number travels beside it.
#[derive(Serialize, Deserialize)]
struct Envelope {
    audience: Audience,
    event: Event,
    /// The epoch the event was published in: a replica that holds another learns that
    /// Redis's history was replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    epoch: Option<String>,
}

fn key(appointment_id: &str, what: &str) -> String {
    // The hash tag keeps an appointment's keys in one slot of a Redis Cluster.
    format!("salesroom:{{{appointment_id}}}:{what}")
}

fn reaction_field(reaction: Reaction) -> &'static str {
    match reaction {
        Reaction::Heart => "heart",
        Reaction::Clap => "clap",
        Reaction::Laugh => "laugh",
        Reaction::Wow => "wow",
        Reaction::Fire => "fire",
    }
}

fn channel(appointment_id: &str) -> String {
    key(appointment_id, "events")
}

fn appointment_of(channel: &str) -> Option<&str> {
    channel
        .strip_prefix("salesroom:{")?
        .strip_suffix("}:events")
}

/// Which Redis pub/sub carries the events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PubSubMode {
    /// Sharded where the server supports it (Redis 7.0 and later), else classic.
    #[default]
    Auto,
    /// `SPUBLISH`/`SSUBSCRIBE`.
    Sharded,
    /// `PUBLISH`/`SUBSCRIBE`.
    Classic,
}

/// The major version in `INFO server`'s `redis_version:7.0.15`.
fn major_version(info: &str) -> Option<u32> {
    let version = info
        .lines()
        .find_map(|line| line.strip_prefix("redis_version:"))?;
    version.trim().split('.').next()?.parse().ok()
}

pub struct Cluster {
    redis: ConnectionManager,
    /// Sharded pub/sub (`SPUBLISH`/`SSUBSCRIBE`) rather than classic.
    sharded: bool,
    publish: Script,
    restore: Script,
    snapshot: Script,
    /// False while events cannot flow: Redis unreachable, or subscriptions not restored
    /// and rooms not caught up yet.
    healthy: AtomicBool,
}

impl Cluster {
    /// Connects and starts the tasks that deliver events to `rooms` and watch health.
    pub async fn connect(
        url: &str,
        mode: PubSubMode,
    ) -> Result<(Arc<Cluster>, mpsc::UnboundedReceiver<redis::PushInfo>), StoreError> {
        // RESP3 carries pub/sub messages on the same connection as commands, and lets
        // the connection manager restore subscriptions after a reconnect.
        let url = if url.contains("protocol=") {
            url.to_owned()
        } else if url.contains('?') {
            format!("{url}&protocol=resp3")
        } else {
            format!("{url}?protocol=resp3")
        };
        let client = redis::Client::open(url)?;
        let (push_tx, push_rx) = mpsc::unbounded_channel();
        let config = ConnectionManagerConfig::new()
            .set_push_sender(push_tx)
            .set_automatic_resubscription()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(2)))
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_millis(500));
        let mut redis = client.get_connection_manager_with_config(config).await?;
        let sharded = match mode {
            PubSubMode::Sharded => true,
            PubSubMode::Classic => false,
            PubSubMode::Auto => {
                let info: String = redis::cmd("INFO")
                    .arg("server")
                    .query_async(&mut redis)
                    .await?;
                major_version(&info).is_some_and(|major| major >= 7)
            }
        };
        tracing::info!(sharded, "Redis pub/sub");
        let cluster = Arc::new(Cluster {
            redis,
            sharded,
            publish: Script::new(PUBLISH),
            restore: Script::new(RESTORE),
            snapshot: Script::new(SNAPSHOT),
            healthy: AtomicBool::new(true),
        });
        Ok((cluster, push_rx))
    }

    /// Whether events travel by sharded pub/sub.
    pub fn is_sharded(&self) -> bool {
        self.sharded
    }

    pub fn is_healthy(&self) -> bool {
        self.healthy.load(Ordering::Relaxed)
    }

    /// Runs the delivery loop (events to `deliver`) and the health check until the
    /// process ends.
    pub fn spawn_tasks(
        self: &Arc<Self>,
        deliver: Arc<dyn Deliver>,
        mut pushes: mpsc::UnboundedReceiver<redis::PushInfo>,
    ) {
        let cluster = self.clone();
        let delivering = deliver.clone();
        tokio::spawn(async move {
            while let Some(push) = pushes.recv().await {
                match push.kind {
                    PushKind::Message | PushKind::SMessage => {
                        let mut data = push.data.into_iter();
                        let (Some(channel), Some(payload)) = (data.next(), data.next()) else {
                            continue;
                        };
                        let (Ok(channel), Ok(payload)) = (
                            redis::from_redis_value::<String>(channel),
                            redis::from_redis_value::<String>(payload),
                        ) else {
                            continue;
                        };
                        let Some(appointment_id) = appointment_of(&channel) else {
                            continue;
                        };
                        match parse_message(&payload) {
                            Ok((epoch, event)) => {
                                if let Err(error) =
                                    delivering.deliver(appointment_id, epoch, event).await
                                {
                                    tracing::warn!(%error, %appointment_id, "could not deliver an event");
                                }
                            }
                            Err(error) => {
                                tracing::warn!(%error, %appointment_id, "malformed event in Redis")
                            }
                        }
                    }
                    PushKind::Disconnection => {
                        tracing::warn!("Redis connection lost");
                        cluster.healthy.store(false, Ordering::Relaxed);
                    }
                    _ => {}
                }
            }
        });
        let cluster = self.clone();
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(Duration::from_millis(500));
            loop {
                interval.tick().await;
                let mut redis = cluster.redis.clone();
                let alive = redis::cmd("PING")
                    .query_async::<String>(&mut redis)
                    .await
                    .is_ok();
                if !alive {
                    cluster.healthy.store(false, Ordering::Relaxed);
                    continue;
                }
                // Reconnected: subscriptions are restored; fetch what was missed.
                if !cluster.is_healthy() && deliver.catch_up_all().await {
                    tracing::info!("Redis connection restored");
                    cluster.healthy.store(true, Ordering::Relaxed);
                }
            }
        });
    }

    /// Orders and distributes an event published in `epoch` by a replica whose room is at
    /// `seen` (its sequence number); returns the event's sequence number, or
    /// [`StoreError::Forgotten`] (nothing published) when Redis no longer holds that
    /// history (see [`Cluster::restore`]). The stream keeps about `stream_length` events.
    pub async fn publish(
        &self,
        appointment_id: &str,
        (epoch, seen): (&str, u64),
        audience: Audience,
        event: Event,
        stream_length: usize,
    ) -> Result<u64, StoreError> {
        let payload = serde_json::to_string(&Envelope {
            audience,
            event,
            epoch: Some(epoch.to_owned()),
        })?;
        let mut redis = self.redis.clone();
        let seq: i64 = self
            .publish
            .key(key(appointment_id, "seq"))
            .key(key(appointment_id, "log"))
            .key(channel(appointment_id))
            .key(key(appointment_id, "epoch"))
            .arg(payload)
            .arg(stream_length)
            .arg(if self.sharded { "SPUBLISH" } else { "PUBLISH" })
            .arg(epoch)
            .arg(seen)
            .invoke_async(&mut redis)
            .await?;
        u64::try_from(seq).map_err(|_| StoreError::Forgotten)
    }

    /// Writes a replica's state (at `seq`, in `old_epoch`) back to a Redis that forgot the
    /// appointment, as `new_epoch`: epoch, counter, snapshot, an empty stream. Another
    /// replica may have done so first: the epoch Redis holds afterwards is returned, and
    /// the room is to load it when it is not `new_epoch`.
    pub async fn restore(
        &self,
        appointment_id: &str,
        old_epoch: &str,
        new_epoch: &str,
        seq: u64,
        state: &LiveState,
    ) -> Result<String, StoreError> {
        let body = serde_json::to_string(state)?;
        let mut redis = self.redis.clone();
        let epoch: String = self
            .restore
            .key(key(appointment_id, "epoch"))
            .key(key(appointment_id, "seq"))
            .key(key(appointment_id, "snapshot"))
            .key(key(appointment_id, "log"))
            .arg(new_epoch)
            .arg(seq)
            .arg(body)
            .arg(old_epoch)
            .invoke_async(&mut redis)
            .await?;
        Ok(epoch)
    }

    pub async fn subscribe(&self, appointment_id: &str) -> Result<(), StoreError> {
        if self.sharded {
            // The connection manager has no method for it, but it tracks the server's
            // confirmation and sends SSUBSCRIBE again after a reconnect, like SUBSCRIBE.
            let mut redis = self.redis.clone();
            redis::cmd("SSUBSCRIBE")
                .arg(channel(appointment_id))
                .exec_async(&mut redis)
                .await?;
        } else {
            self.redis
                .clone()
                .subscribe(channel(appointment_id))
                .await?;
        }
        Ok(())
    }

    /// The appointment's epoch, if Redis holds one (nothing is created).
    /// Reaction sums across replicas, in one round trip: adds this replica's `taps` to the
    /// hash of bucket `write` (a 250 ms slot of wall time), and returns the sums of
    /// buckets `read` (older ones, to which every replica has written by now). Buckets
    /// expire after a minute.
    pub async fn exchange_reactions(
        &self,
        appointment_id: &str,
        write: u64,
        taps: ReactionCounts,
        read: std::ops::RangeInclusive<u64>,
    ) -> Result<ReactionCounts, StoreError> {
        let bucket = |n: u64| key(appointment_id, &format!("reactions:{n}"));
        let mut pipe = redis::pipe();
        if !taps.is_empty() {
            for (reaction, n) in Reaction::ALL.iter().zip(taps.to_array()) {
                if n > 0 {
                    pipe.hincr(bucket(write), reaction_field(*reaction), n)
                        .ignore();
                }
            }
            pipe.expire(bucket(write), 60).ignore();
        }
        let reads: Vec<u64> = read.collect();
        for n in &reads {
            pipe.cmd("HMGET")
                .arg(bucket(*n))
                .arg(Reaction::ALL.map(reaction_field).as_slice());
        }
        let rows: Vec<Vec<Option<u32>>> = pipe.query_async(&mut self.redis.clone()).await?;
        let mut sum = ReactionCounts::default();
        for row in rows {
            let mut counts = [0u32; 5];
            for (count, value) in counts.iter_mut().zip(row) {
                *count = value.unwrap_or(0);
            }
            sum.add(ReactionCounts::from_array(counts));
        }
        Ok(sum)
    }

    pub async fn epoch(&self, appointment_id: &str) -> Result<Option<String>, StoreError> {
        Ok(self.redis.clone().get(key(appointment_id, "epoch")).await?)
    }

    /// The epoch (created on first use), the snapshot and the stream after it.
    pub async fn load(
        &self,
        appointment_id: &str,
        new_epoch: &str,
        retained: usize,
    ) -> Result<StoredRoom, StoreError> {
        let mut redis = self.redis.clone();
        let _: bool = redis
            .set_nx(key(appointment_id, "epoch"), new_epoch)
            .await?;
        let epoch: String = redis.get(key(appointment_id, "epoch")).await?;
        let (snapshot_seq, state): (Option<u64>, Option<String>) = redis::cmd("HMGET")
            .arg(key(appointment_id, "snapshot"))
            .arg("seq")
            .arg("state")
            .query_async(&mut redis)
            .await?;
        let snapshot_seq = snapshot_seq.unwrap_or(0);
        let snapshot = match state {
            Some(state) => serde_json::from_str(&state)?,
            None => LiveState::default(),
        };
        let from = snapshot_seq
            .saturating_sub(
                crate::store::retained_events(retained, snapshot.participants.len()) as u64,
            )
            + 1;
        let events = self.range(appointment_id, from).await?;
        Ok(StoredRoom {
            epoch,
            snapshot_seq,
            snapshot,
            events,
        })
    }

    /// The stream's events from `from` on.
    pub async fn range(
        &self,
        appointment_id: &str,
        from: u64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let mut redis = self.redis.clone();
        let reply: StreamRangeReply = redis
            .xrange(key(appointment_id, "log"), format!("{from}-0"), "+")
            .await?;
        reply
            .ids
            .into_iter()
            .map(|entry| {
                let seq = entry
                    .id
                    .split('-')
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| StoreError::Corrupt(format!("stream id {}", entry.id)))?;
                let body: String = match entry.map.get("e") {
                    Some(Value::BulkString(bytes)) => String::from_utf8_lossy(bytes).into_owned(),
                    Some(value) => redis::from_redis_value(value.clone())
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                    None => {
                        return Err(StoreError::Corrupt(format!(
                            "stream entry {} has no event",
                            entry.id
                        )))
                    }
                };
                let envelope: Envelope = serde_json::from_str(&body)?;
                Ok(StoredEvent {
                    seq,
                    audience: envelope.audience,
                    event: envelope.event,
                })
            })
            .collect()
    }

    /// Stores a snapshot unless a newer one is there.
    pub async fn snapshot(
        &self,
        appointment_id: &str,
        seq: u64,
        state: &LiveState,
    ) -> Result<(), StoreError> {
        let body = serde_json::to_string(state)?;
        let mut redis = self.redis.clone();
        let _: i64 = self
            .snapshot
            .key(key(appointment_id, "snapshot"))
            .arg(seq)
            .arg(body)
            .invoke_async(&mut redis)
            .await?;
        Ok(())
    }
}

fn parse_message(payload: &str) -> Result<(Option<String>, StoredEvent), StoreError> {
    let (seq, body) = payload
        .split_once('\n')
        .ok_or_else(|| StoreError::Corrupt("message without a sequence number".into()))?;
    let seq = seq
        .parse()
        .map_err(|_| StoreError::Corrupt(format!("sequence number {seq:?}")))?;
    let envelope: Envelope = serde_json::from_str(body)?;
    Ok((
        envelope.epoch,
        StoredEvent {
            seq,
            audience: envelope.audience,
            event: envelope.event,
        },
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_server_version_decides_sharded_pub_sub() {
        let info = "# Server\r\nredis_version:7.0.15\r\nredis_git_sha1:00000000\r\n";
        assert_eq!(super::major_version(info), Some(7));
        assert_eq!(super::major_version("redis_version:6.2.14\n"), Some(6));
        assert_eq!(super::major_version("# Server\n"), None);
    }

    #[test]
    fn channels_name_their_appointment() {
        let channel = super::channel("abc");
        assert_eq!(super::appointment_of(&channel), Some("abc"));
        assert_eq!(super::appointment_of("other:channel"), None);
    }
}
