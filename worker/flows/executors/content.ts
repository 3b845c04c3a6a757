/**
 * Content blocks (text, image, audio, video, file, ptv, contact): each sends one message, variables
 * filled, and follows `next`.
 */
import { HANDLES, type BlockMedia } from "../../../schema/flows";
import { next, type Executor, type StepRuntime } from "../runtime";
import type { OutboundMessage } from "../../channels/types";

type MediaType = "image" | "audio" | "video" | "document" | "ptv";

/** The MIME sent when the block's upload left none. */
const FALLBACK_MIME: Record<MediaType, string> = {
  image: "image/jpeg",
  audio: "audio/ogg",
  video: "video/mp4",
  document: "application/octet-stream",
  ptv: "video/mp4",
};

function mediaMessage(run: StepRuntime, type: MediaType, media: BlockMedia, caption: string): OutboundMessage {
  const rendered = run.render(caption).trim();
  return {
    type,
    media: { url: media.url, mime: media.mime || FALLBACK_MIME[type], ...(media.fileName ? { fileName: media.fileName } : {}) },
    ...(rendered ? { caption: rendered } : {}),
  };
}

export const textExecutor: Executor<"text"> = {
  enter(node, run) {
    run.emit({ type: "send", nodeId: node.id, message: { type: "text", body: run.render(node.data.message) } });
    return next(HANDLES.next);
  },
};

export const imageExecutor: Executor<"image"> = {
  enter(node, run) {
    run.emit({ type: "send", nodeId: node.id, message: mediaMessage(run, "image", node.data.media, node.data.message) });
    return next(HANDLES.next);
  },
};

export const audioExecutor: Executor<"audio"> = {
  enter(node, run) {
    run.emit({ type: "send", nodeId: node.id, message: mediaMessage(run, "audio", node.data.media, "") });
    return next(HANDLES.next);
  },
};

export const videoExecutor: Executor<"video"> = {
  enter(node, run) {
    run.emit({ type: "send", nodeId: node.id, message: mediaMessage(run, "video", node.data.media, node.data.message) });
    return next(HANDLES.next);
  },
};

export const fileExecutor: Executor<"file"> = {
  enter(node, run) {
    run.emit({ type: "send", nodeId: node.id, message: mediaMessage(run, "document", node.data.media, node.data.message) });
    return next(HANDLES.next);
  },
};

export const ptvExecutor: Executor<"ptv"> = {
  enter(node, run) {
    run.emit({ type: "send", nodeId: node.id, message: mediaMessage(run, "ptv", node.data.media, "") });
    return next(HANDLES.next);
  },
};

export const contactExecutor: Executor<"contact"> = {
  enter(node, run) {
    const organization = run.render(node.data.organization).trim();
    run.emit({
      type: "send",
      nodeId: node.id,
      message: { type: "contact", contact: { name: run.render(node.data.name), phone: run.render(node.data.phone), ...(organization ? { organization } : {}) } },
    });
    return next(HANDLES.next);
  },
};
