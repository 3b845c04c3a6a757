/**
 * /internal-chats: the internal chat (spec §2 Internal chat; issue 12). Members' conversations on
 * the left (search, unread badges), the selected one on the right (the URL keeps it:
 * /internal-chats?chat=<id>), a dialog for a new direct conversation or group, and the group's
 * settings. On narrow screens (390 px) the list and the conversation are separate views. Everything
 * stays live through the company hub (hooks/use-live-internal-chats.ts).
 */
import { useCallback, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { MessagesSquare, SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/api";
import { useDebounced } from "@/lib/use-debounced";
import { useDocumentTop } from "@/lib/use-document-top";
import { cn } from "@/lib/utils";
import type { InternalChatAnswer, InternalChatPage } from "../../../../../schema/validation/internal-chats";
import { internalChatKeys, internalChatQuery } from "../api/internal-chats-api";
import { useLiveInternalChats, useOwnMemberId } from "../hooks/use-live-internal-chats";
import { flattenChats, type Pages } from "../lib/internal-chats";
import { ChatConversation } from "./chat-conversation";
import { ChatList } from "./chat-list";
import { GroupSettingsDialog } from "./group-settings-dialog";
import { NewChatDialog } from "./new-chat-dialog";

/** Search waits this long after the last key (ms). */
const SEARCH_DEBOUNCE_MS = 300;

/** The conversation from any loaded list, to show at once while its own query loads. */
function useChatFromLists(id: string | null): () => InternalChatAnswer | undefined {
  const queryClient = useQueryClient();
  return useCallback(() => {
    if (!id) return undefined;
    for (const [, data] of queryClient.getQueriesData<Pages<InternalChatPage>>({ queryKey: internalChatKeys.lists() })) {
      const found = flattenChats(data).find((c) => c.id === id);
      if (found) return found;
    }
    return undefined;
  }, [id, queryClient]);
}

/** The internal chat screen. */
export function InternalChatsPage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get("chat");
  const memberId = useOwnMemberId();
  useLiveInternalChats(selectedId);
  const [searchText, setSearchText] = useState("");
  const search = useDebounced(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const [creating, setCreating] = useState(false);
  const [settings, setSettings] = useState(false);
  const fromLists = useChatFromLists(selectedId);
  const chat = useQuery({ ...internalChatQuery(selectedId ?? ""), enabled: selectedId !== null, initialData: fromLists, initialDataUpdatedAt: 0 });

  const select = useCallback(
    (id: string | null) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id) next.set("chat", id);
          else next.delete("chat");
          return next;
        },
        { replace: false },
      );
    },
    [setParams],
  );

  const rootRef = useRef<HTMLDivElement>(null);
  const top = useDocumentTop(rootRef);
  const notFound = chat.isError && isApiError(chat.error) && chat.error.status === 404;

  return (
    <div
      ref={rootRef}
      style={top === null ? undefined : { height: `calc(100dvh - ${top}px - var(--chats-bottom))` }}
      className="-mx-4 -my-4 flex h-[calc(100dvh-3.5rem)] min-h-[24rem] overflow-hidden border-y bg-background [--chats-bottom:0px] sm:mx-0 sm:my-0 sm:h-[calc(100dvh-6.5rem)] sm:rounded-xl sm:border sm:[--chats-bottom:1.5rem]"
      data-testid="internal-chats-screen"
    >
      <div className={cn("w-full min-w-0 shrink-0 flex-col border-r md:flex md:w-72 xl:w-80", selectedId ? "hidden" : "flex")}>
        <ChatList search={search} searchText={searchText} onSearchText={setSearchText} memberId={memberId} selectedId={selectedId} onSelect={select} onNew={() => setCreating(true)} />
      </div>
      <div className={cn("min-w-0 flex-1", selectedId ? "flex" : "hidden md:flex")}>
        {!selectedId ? (
          <EmptyState
            className="flex-1"
            icon={<MessagesSquare />}
            title={t`No conversation selected`}
            description={t`Choose a conversation from the list, or start a new one with your team.`}
            action={
              <Button variant="outline" size="sm" onClick={() => setCreating(true)}>
                {t`New conversation`}
              </Button>
            }
          />
        ) : chat.data ? (
          <>
            <ChatConversation chat={chat.data} memberId={memberId} onBack={() => select(null)} onSettings={() => setSettings(true)} />
            {chat.data.kind === "group" ? (
              <GroupSettingsDialog chat={chat.data} memberId={memberId} open={settings} onOpenChange={setSettings} onLeft={() => select(null)} />
            ) : null}
          </>
        ) : notFound ? (
          <EmptyState
            className="flex-1"
            icon={<SearchX />}
            title={t`This conversation is not available`}
            description={t`You are not a member of it, or it no longer exists.`}
            action={
              <Button variant="outline" size="sm" onClick={() => select(null)}>
                {t`Back to conversations`}
              </Button>
            }
          />
        ) : chat.isError ? (
          <ErrorState className="flex-1 self-center" title={t`Could not load this conversation.`} onRetry={() => void chat.refetch()} />
        ) : (
          <div className="flex h-full flex-1 flex-col" aria-hidden>
            <div className="flex items-center gap-3 border-b p-3">
              <Skeleton className="size-9 rounded-full" />
              <div className="grid flex-1 gap-1.5">
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-3 w-24" />
              </div>
            </div>
            <div className="flex-1" />
          </div>
        )}
      </div>
      <NewChatDialog open={creating} onOpenChange={setCreating} memberId={memberId} onCreated={(created) => select(created.id)} />
    </div>
  );
}
