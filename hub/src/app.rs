//! The hub's shared state, [`Hub`]: what every handler reads. It sits below the HTTP
//! modules (`server`, `internal`), which import it; it imports none of them.

use std::sync::Arc;

use crate::cluster::Cluster;
use crate::config::Config;
use crate::live::local::LocalOrder;
use crate::live::replicated::ClusterOrder;
use crate::live::{Order, RoomSettings, Rooms};
use crate::metrics::Metrics;
use crate::store::{Store, StoreError};
use crate::video::LiveKit;
use crate::ws::fanout::Writers;

/// Shared state of all handlers. Cheap to clone.
#[derive(Clone)]
pub struct Hub {
    pub config: Arc<Config>,
    secret: Arc<Vec<u8>>,
    pub rooms: Rooms,
    pub metrics: Arc<Metrics>,
    pub video: Option<Arc<LiveKit>>,
    /// The writer tasks that write the rooms' events on the sockets (`ws::fanout`).
    pub writers: Arc<Writers>,
    cluster: Option<Arc<Cluster>>,
}

impl Hub {
    /// Opens the room store: Redis when `REDIS_URL` is set (cluster mode), else SQLite
    /// under `DATA_DIR`.
    pub async fn open(config: Config, secret: Vec<u8>) -> Result<Self, StoreError> {
        let metrics = Arc::<Metrics>::default();
        let settings = RoomSettings {
            retained_events: config.retained_events,
            metrics: metrics.clone(),
        };
        let (rooms, cluster) = match &config.redis_url {
            Some(url) => {
                let (cluster, pushes) = Cluster::connect(url, config.redis_pubsub()).await?;
                let order = ClusterOrder::new(cluster.clone());
                let rooms = Rooms::new(order.clone(), settings);
                // Redis hands events to this replica's rooms through the order.
                cluster.spawn_tasks(order.delivery(rooms.clone()), pushes);
                (rooms, Some(cluster))
            }
            None => {
                let order: Arc<dyn Order> =
                    LocalOrder::new(Arc::new(Store::open(&config.data_dir.join("hub.sqlite"))?));
                (Rooms::new(order, settings), None)
            }
        };
        crate::live::tick::spawn(rooms.clone());
        rooms.spawn_session_sampler(config.session_sample_ms);
        let video = config.livekit().map(Arc::new);
        Ok(Hub {
            config: Arc::new(config),
            secret: Arc::new(secret),
            rooms,
            metrics,
            video,
            writers: Writers::per_worker(),
            cluster,
        })
    }

    pub(crate) fn secret(&self) -> &[u8] {
        &self.secret
    }

    /// Cluster mode: the Redis connection, for health.
    pub(crate) fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }
}
