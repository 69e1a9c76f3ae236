//! A connection's bounded send queue: one sender (the room), one receiver (the
//! connection task), and a [`Drain`] for the writer task that may empty it in the
//! connection's place (`ws::fanout`).
//!
//! tokio's mpsc allocates a block of 32 slots per channel up front; with tens of
//! thousands of mostly idle connections that is most of a connection's memory. This
//! queue allocates nothing until something is queued.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

struct State<T> {
    items: VecDeque<T>,
    /// The sender or the receiver is gone.
    closed: bool,
}

struct Shared<T> {
    // Held only to push or pop one item, never across an await.
    state: Mutex<State<T>>,
    /// Raised by the sender for a guide of a growing room ([`Sender::raise_capacity`]).
    capacity: AtomicUsize,
    notify: Notify,
}

impl<T> Shared<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn close(&self) {
        self.lock().closed = true;
        self.notify.notify_one();
    }
}

pub fn channel<T>(capacity: usize) -> (Sender<T>, Receiver<T>) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            items: VecDeque::new(),
            closed: false,
        }),
        capacity: AtomicUsize::new(capacity.max(1)),
        notify: Notify::new(),
    });
    (
        Sender {
            shared: shared.clone(),
        },
        Receiver { shared },
    )
}

#[derive(Debug, PartialEq, Eq)]
pub enum TrySendError<T> {
    /// The queue holds `capacity` items.
    Full(T),
    /// The receiver is gone.
    Closed(T),
}

pub struct Sender<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Sender<T> {
    pub fn try_send(&self, item: T) -> Result<(), TrySendError<T>> {
        self.try_send_quietly(item)?;
        self.shared.notify.notify_one();
        Ok(())
    }

    /// Queues without waking the receiver: a writer task takes it out instead
    /// (`ws::fanout`). The receiver still sees it the next time it looks.
    pub fn try_send_quietly(&self, item: T) -> Result<(), TrySendError<T>> {
        let mut state = self.shared.lock();
        if state.closed {
            return Err(TrySendError::Closed(item));
        }
        if state.items.len() >= self.shared.capacity.load(Ordering::Relaxed) {
            return Err(TrySendError::Full(item));
        }
        state.items.push_back(item);
        Ok(())
    }

    pub fn is_closed(&self) -> bool {
        self.shared.lock().closed
    }

    /// Lets the queue hold at least `capacity` items from now on (never lowers it): a
    /// guide's queue grows with its room (`Room`'s presence events). Memory is only taken
    /// as items are queued.
    pub fn raise_capacity(&self, capacity: usize) {
        self.shared.capacity.fetch_max(capacity, Ordering::Relaxed);
    }

    /// Nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.shared.lock().items.is_empty()
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        self.shared.close();
    }
}

pub struct Receiver<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Receiver<T> {
    /// The next item; `None` once the sender is gone and the queue is empty.
    pub async fn recv(&mut self) -> Option<T> {
        loop {
            // Registered before looking, so a push between the look and the wait is
            // not missed (notify_one also stores a permit when no one waits).
            let notified = self.shared.notify.notified();
            {
                let mut state = self.shared.lock();
                if let Some(item) = state.items.pop_front() {
                    if state.items.is_empty() && state.items.capacity() > 16 {
                        // A burst is over: give back its memory.
                        state.items.shrink_to(4);
                    }
                    return Some(item);
                }
                if state.closed {
                    return None;
                }
            }
            notified.await;
        }
    }

    /// Waits until something is queued (true) or the sender is gone and the queue is
    /// empty (false); takes nothing out.
    pub async fn ready(&mut self) -> bool {
        loop {
            let notified = self.shared.notify.notified();
            {
                let state = self.shared.lock();
                if !state.items.is_empty() {
                    return true;
                }
                if state.closed {
                    return false;
                }
            }
            notified.await;
        }
    }

    /// Nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.shared.lock().items.is_empty()
    }

    /// The next item if one is queued.
    pub fn try_recv(&mut self) -> Option<T> {
        let mut state = self.shared.lock();
        let item = state.items.pop_front();
        if state.items.is_empty() && state.items.capacity() > 16 {
            // A burst is over: give back its memory.
            state.items.shrink_to(4);
        }
        item
    }
}

impl<T> Receiver<T> {
    /// A handle that takes items out as the receiver would (for a writer task).
    pub fn drain(&self) -> Drain<T> {
        Drain {
            shared: self.shared.clone(),
        }
    }
}

/// Takes items out of a queue in its receiver's place, and wakes the receiver when it
/// must take over. Whoever takes items out must serialise with the receiver itself (the
/// connection's sink lock does, in `ws::fanout`).
pub struct Drain<T> {
    shared: Arc<Shared<T>>,
}

/// What [`Drain::try_recv_if`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Next<T> {
    Item(T),
    Empty,
    /// The next item is one the caller does not take; it stays first in the queue.
    Refused,
}

impl<T> Drain<T> {
    /// The next item, if one is queued and `take` accepts it.
    pub fn try_recv_if(&self, take: impl FnOnce(&T) -> bool) -> Next<T> {
        let mut state = self.shared.lock();
        let Some(front) = state.items.front() else {
            return Next::Empty;
        };
        if !take(front) {
            return Next::Refused;
        }
        let item = state.items.pop_front().map_or(Next::Empty, Next::Item);
        if state.items.is_empty() && state.items.capacity() > 16 {
            state.items.shrink_to(4);
        }
        item
    }

    /// Queues `marker` (when there is room; a full queue wakes the receiver anyway) and
    /// wakes the receiver.
    pub fn wake_receiver(&self, marker: T) {
        let mut state = self.shared.lock();
        if !state.closed && state.items.len() < self.shared.capacity.load(Ordering::Relaxed) {
            state.items.push_back(marker);
        }
        drop(state);
        self.shared.notify.notify_one();
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        self.shared.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn items_come_out_in_order_and_the_end_after_them() {
        let (tx, mut rx) = channel(3);
        for i in 0..3 {
            tx.try_send(i).unwrap();
        }
        assert_eq!(tx.try_send(3), Err(TrySendError::Full(3)));
        drop(tx);
        assert_eq!(rx.recv().await, Some(0));
        assert_eq!(rx.recv().await, Some(1));
        assert_eq!(rx.recv().await, Some(2));
        assert_eq!(rx.recv().await, None);
    }

    #[tokio::test]
    async fn a_waiting_receiver_wakes_for_a_push_and_a_sender_sees_it_gone() {
        let (tx, mut rx) = channel(2);
        let waiter = tokio::spawn(async move {
            let got = rx.recv().await;
            (got, rx)
        });
        tokio::task::yield_now().await;
        tx.try_send(7).unwrap();
        let (got, rx) = waiter.await.unwrap();
        assert_eq!(got, Some(7));
        drop(rx);
        assert!(tx.is_closed());
        assert_eq!(tx.try_send(8), Err(TrySendError::Closed(8)));
    }
}
