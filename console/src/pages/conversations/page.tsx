import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { problemOf, otherwise } from "../../api/client";
import { useLatest, ErrorAlert, Loading, announce, PageHeader, useResource } from "../../components";
import type { PageProps } from "../types";
import { deliveryOf } from "./channel-parts";
import { ConversationList } from "./conversation-list";
import { FiltersForm } from "./filters";
import {
  NO_FILTERS,
  filterOptions,
  getConversation,
  listConversations,
  listMessages,
  markRead,
  matches,
  type Conversation,
  type Filters,
  type Message,
} from "./api";
import { useInboxEvents, type LiveChanges, type LiveEvent, type TypingEvent } from "./live";
import { useVisitorTyping } from "./typing-state";
import { t } from "./strings";
import { Transcript } from "./transcript";
import { NotifyToggle } from "../../shell/notify-toggle";
import { UnreadInboxes } from "./unread";
import { messageStateAfter, messageStateRead } from "./unread-order";
import { ViewSwitch, inOrder } from "./views";
import { BASE, currentSearch, followLink } from "../../shell/router";

/**
 * A row brought up to date from a live event; null when its assignee is someone it cannot name yet.
 * A message's event carries the conversation as it was when the message was written, and may arrive after
 * a lifecycle change the member made meanwhile (the take-over's answer): only lifecycle events
 * (`conversation.updated` with `changes`) move the state, assignee and team, so a late message event
 * cannot take a conversation back to the assistant on screen.
 */
function merged(row: Conversation, e: Exclude<LiveEvent, { type: "conversation.created" }>): Conversation | null {
  const c = e.conversation;
  const messageState = { title: c.title, ...messageStateAfter(row, c) };
  if (e.type === "message.created") return { ...row, ...messageState };
  if (!follows(row, e.changes ?? {})) return null;
  if ((c.assignee?.id ?? null) !== (row.assignee?.id ?? null) && c.assignee) return null;
  if ((c.team?.id ?? null) !== (row.team?.id ?? null) && c.team) return null;
  const { status, progressStatus, autoReplyEnabled, waitingSince, csat } = c;
  return {
    ...row,
    status,
    progressStatus,
    autoReplyEnabled,
    // A late event (a message's after the read's) cannot bring back an older message nor raise the count again.
    ...messageState,
    waitingSince,
    csat,
    assignee: c.assignee ? row.assignee : null,
    team: c.team ? row.team : null,
  };
}

/**
 * Whether a lifecycle change starts from the state shown. It does not when the event is late (a take-over's event
 * after the hand-back's answer, under load) or one was missed: the record is read instead of moving the state back.
 */
function follows(row: Conversation, changes: LiveChanges): boolean {
  const shown = {
    status: row.status,
    progressStatus: row.progressStatus,
    assignee: row.assignee?.id ?? null,
    autoReplyEnabled: row.autoReplyEnabled,
  };
  return Object.entries(changes).every(([field, [before]]) => shown[field as keyof LiveChanges] === before);
}

/**
 * A transcript read, with the messages the live stream brought while it ran (newer than its latest): the read
 * answers as of when it was made, and must not take a message shown since off the screen.
 */
function withLater(conversationId: string, read: Message[], shown: Message[] | undefined): Message[] {
  const last = read.at(-1)?.sequence ?? -1;
  const later = (shown ?? []).filter((m) => m.conversation === conversationId && m.sequence > last);
  return later.length ? [...read, ...later].sort((a, b) => a.sequence - b.sequence) : read;
}

/** The name of the contact `id` as the conversations on screen carry it, for the filter's choice. */
const contactNamed = (id: string, shown: (Conversation | null)[]) =>
  shown.find((c) => c?.contact?.id === id)?.contact?.name;

/** A read is made at most this many times while records applied meanwhile make its answer suspect (`settledRead`). */
const READ_TRIES = 3;

/**
 * `read(attempt)` again while a record was applied during it (`applied()` moved: its answer may be older than what is
 * shown), READ_TRIES times at most; null once `current()` says a later read of the same thing began.
 */
async function settledRead<T>(
  applied: () => number,
  read: (attempt: number) => Promise<T>,
  current: () => boolean = () => true,
): Promise<T | null> {
  for (let attempt = 1; ; attempt++) {
    const seen = applied();
    const value = await read(attempt);
    if (!current()) return null;
    if (applied() === seen || attempt === READ_TRIES) return value;
  }
}

/**
 * The conversations inbox: the organization's conversations, filtered, kept live by the
 * conversation event stream; `/conversations/<id>` shows one transcript beside the list.
 */
export default function InboxPage({ params, organizationId }: PageProps) {
  const selectedId = params.rest || null;
  // A link to one contact's conversations (the contact's page, a conversation's contact panel) opens the inbox with
  // `?contact=`: the list shows theirs alone, whatever it was filtered by.
  const askedContact = new URLSearchParams(currentSearch.value).get("contact") ?? "";
  const [filters, setFilters] = useState<Filters>(() =>
    askedContact ? { ...NO_FILTERS, contact: askedContact } : NO_FILTERS,
  );
  useEffect(() => {
    if (askedContact) setFilters((f) => (f.contact === askedContact ? f : { ...NO_FILTERS, contact: askedContact }));
  }, [askedContact]);
  const [rows, setRows] = useState<Conversation[] | undefined>(undefined);
  const [next, setNext] = useState<string | undefined>(undefined);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [live, setLive] = useState(false);
  const [ended, setEnded] = useState<string | null>(null);
  const [selected, setSelected] = useState<Conversation | null>(null);
  // Why the conversation asked for (by the address) could not be read: in its pane when it never opened (a wrong or
  // old link, an access lost), over the list when it is on screen; the next read that works clears it.
  const [selectedError, setSelectedError] = useState<unknown>(null);
  const [messages, setMessages] = useState<Message[] | undefined>(undefined);
  const options = useResource(() => filterOptions(organizationId), [organizationId]);
  // The filters' choices (labels, assistants, inboxes) made in another tab meanwhile: read again as the operator comes
  // back to this one. Read once, a label created on the Labels page in another tab was not a filter until a reload.
  const reloadOptions = options.reload;
  useEffect(() => {
    const back = () => document.visibilityState === "visible" && void reloadOptions();
    document.addEventListener("visibilitychange", back);
    return () => document.removeEventListener("visibilitychange", back);
  }, [reloadOptions]);
  const state = useRef({ rows, next, filters, selectedId });
  state.current = { rows, next, filters, selectedId };
  // Reads race the live stream and the member's own actions: a read answered before a newer record landed here
  // may arrive after it. Each record put on screen counts; a read during which the count moved is made again
  // (settledRead) instead of putting an older state over a newer one.
  const applied = useRef({ all: 0, by: new Map<string, number>() });
  const appliedTo = (id?: string) => (id ? (applied.current.by.get(id) ?? 0) : applied.current.all);

  // Filters change faster than the API answers: only the latest list (or next page) and transcript land.
  const latestList = useLatest();
  const latestSelected = useLatest();
  const load = useCallback(async () => {
    const current = latestList.start();
    try {
      const page = await settledRead(appliedTo, () => listConversations(filters), current);
      if (!page) return;
      setRows(page.results);
      setNext(page.next);
      setError(null);
    } catch (err) {
      const problem = problemOf(err);
      if (current()) setError(problem);
    }
  }, [filters, organizationId]);
  useEffect(() => {
    setRows(undefined);
    void load();
  }, [load]);

  const loadSelected = useCallback(async () => {
    const current = latestSelected.start();
    if (!selectedId) return;
    try {
      const read = await settledRead(
        () => appliedTo(selectedId),
        () => Promise.all([getConversation(selectedId), listMessages(selectedId)]),
        current,
      );
      if (!read) return;
      const [c, m] = read;
      setSelectedError(null);
      upsert(c);
      setMessages((shown) => withLater(selectedId, m, shown));
      if (c.unreadCount > 0) readNow(c.id);
    } catch (err) {
      const problem = problemOf(err);
      if (current()) setSelectedError(problem);
    }
  }, [selectedId, organizationId]);
  useEffect(() => {
    setSelected(null);
    setSelectedError(null);
    setMessages(undefined);
    void loadSelected();
  }, [loadSelected]);

  // A reply on its way to a messaging platform changes without an event (the channel queue writes
  // its delivery later): the transcript is read again every few seconds until none is sending.
  const sending = messages?.some((m) => deliveryOf(m)?.status === "pending") ?? false;
  useEffect(() => {
    if (!sending || !selectedId) return;
    const timer = setTimeout(() => void loadSelected(), 2000);
    return () => clearTimeout(timer);
  }, [sending, messages, loadSelected]);

  const more = async () => {
    const current = latestList.since();
    setLoadingMore(true);
    try {
      const page = await listConversations(filters, next);
      if (!current()) return;
      setRows((r) =>
        inOrder([...(r ?? []), ...page.results.filter((x) => !r?.some((y) => y.id === x.id))], filters.view),
      );
      setNext(page.next);
    } catch (err) {
      const problem = problemOf(err);
      if (current()) setError(problem);
    } finally {
      setLoadingMore(false);
    }
  };

  /** Opening a conversation (or a visitor writing in the one open while the tab is seen) reads it. */
  const readNow = (id: string) => {
    void fresh(id, () => markRead(id)).catch(otherwise(undefined)); // unread stays shown; the next opening tries again
  };

  /** A conversation's record from `first`, put on screen; read again (GET) while one applied meanwhile may be newer. */
  const fresh = async (id: string, first: () => Promise<Conversation>) => {
    const record = await settledRead(
      () => appliedTo(id),
      (attempt) => (attempt === 1 ? first() : getConversation(id)),
    );
    if (record) upsert(record);
    return record;
  };

  /**
   * Puts a conversation record into the list (where it belongs in the newest-first order) and the transcript; its
   * latest message and unread count never go back to an older message than the one shown (`messageStateRead`).
   */
  const upsert = (record: Conversation) => {
    const { filters: f, next: more, selectedId: open } = state.current;
    const over = (shown: Conversation | null | undefined) =>
      shown?.id === record.id ? { ...record, ...messageStateRead(shown, record) } : record;
    applied.current.all++;
    applied.current.by.set(record.id, appliedTo(record.id) + 1);
    setRows((r) => {
      if (!r) return r;
      const placed = over(r.find((x) => x.id === record.id));
      const others = r.filter((x) => x.id !== record.id);
      const oldest = r.at(-1)?.id;
      // Whether a conversation matches the search's words only the API knows: a record read while another search was
      // shown (its event came late) stays out of a list it is not in.
      const searched = !f.keyword || others.length < r.length;
      // The waiting view is in waiting order: a row may belong anywhere in it, loaded or not.
      const fits = searched && matches(placed, f) && (!more || !oldest || f.view === "waiting" || placed.id >= oldest);
      return fits ? inOrder([placed, ...others], f.view) : others;
    });
    if (record.id === open) setSelected(over);
  };

  const typing = useVisitorTyping(selectedId);
  const onEvent = (e: LiveEvent) => {
    const c = e.conversation;
    const { rows: current, filters: f, selectedId: open } = state.current;
    const row = current?.find((x) => x.id === c.id) ?? (selected?.id === c.id ? selected : undefined);
    const update =
      row && e.type !== "conversation.created" && !(e.type === "conversation.updated" && !e.changes) && merged(row, e);
    if (update) upsert(update);
    // A plain `conversation.updated` (no lifecycle change: labels, for one) is read again, since events carry no
    // labels.
    else if (row || (matches(c, f) && !f.keyword)) {
      fresh(c.id, () => getConversation(c.id)).then((record) => {
        if (!row && record)
          announce(
            e.type === "message.created"
              ? t("newMessage", { title: record.title || t("untitled") })
              : t("newConversation", { title: record.title || t("untitled") }),
          );
      }, otherwise(undefined)); // the next event or reconnection reads it again
    }
    if (e.type === "message.created" && c.id === open && c.unreadCount > 0 && document.visibilityState === "visible")
      readNow(c.id);
    if (e.type === "message.created" && c.id === open) {
      if (e.message.senderType === "contact") typing.clear(); // what they typed has arrived
      setMessages((list) =>
        list && !list.some((m) => m.id === e.message.id)
          ? [...list, e.message].sort((a, b) => a.sequence - b.sequence)
          : list,
      );
    }
  };
  const onTyping = (e: TypingEvent) => typing.heard(e);
  // After a (re)connection, and once the API's quiet period has passed: read everything again.
  useInboxEvents(
    organizationId,
    onEvent,
    () => void Promise.all([load(), loadSelected()]),
    setLive,
    setEnded,
    onTyping,
  );

  return (
    <>
      <PageHeader title={t("title")}>
        <span class={`badge ${live ? "live" : "offline"}`} role="status">
          {live ? t("live") : ended ? t("ended") : t("offline")}
        </span>
        <NotifyToggle />
      </PageHeader>
      <ErrorAlert error={ended} />
      {/* What shapes the list: on a narrow screen showing one conversation (the list hidden), hidden with it. */}
      <div class={`inbox-tools${selectedId ? " has-selection" : ""}`}>
        <ViewSwitch value={filters.view} onChange={(view) => setFilters({ ...filters, view })} />
        <UnreadInboxes selected={filters.inbox} onPick={(inbox) => setFilters({ ...filters, inbox })} />
        <FiltersForm
          value={filters}
          onChange={setFilters}
          options={options.data}
          contactName={filters.contact ? contactNamed(filters.contact, [selected, ...(rows ?? [])]) : undefined}
        />
      </div>
      {/* A failed read of the conversation on screen is said here; one that could not open it, in its pane. */}
      <ErrorAlert error={error ?? (selected ? selectedError : null)} />
      <div class={`inbox-layout${selectedId ? " has-selection" : ""}`}>
        <section class="inbox-conversations" aria-labelledby="inbox-list-title">
          <h2 id="inbox-list-title" class="sr-only">
            {t("list")}
          </h2>
          {rows === undefined ? (
            <Loading />
          ) : (
            <ConversationList
              rows={rows}
              selectedId={selectedId}
              hasMore={!!next}
              loadingMore={loadingMore}
              onMore={more}
            />
          )}
        </section>
        {selectedId ? (
          selected ? (
            <Transcript
              conversation={selected}
              messages={messages}
              typing={typing.name}
              onChanged={upsert}
              onSent={(m) => setMessages((list) => (list && !list.some((x) => x.id === m.id) ? [...list, m] : list))}
              onReload={() => void loadSelected()}
            />
          ) : selectedError ? (
            <div class="inbox-transcript">
              <a class="inbox-back" href={`${BASE}/conversations`} onClick={followLink}>
                {t("back")}
              </a>
              <ErrorAlert error={selectedError} />
            </div>
          ) : (
            <Loading />
          )
        ) : (
          <p class="muted inbox-pick">{t("pick")}</p>
        )}
      </div>
    </>
  );
}
