/**
 * Voice notes with MediaRecorder: Ogg/Opus where the browser records it (what WhatsApp plays as a
 * voice note), else WebM/Opus, else the browser's default.
 */
import { useCallback, useEffect, useRef, useState } from "react";

const PREFERRED_TYPES = ["audio/ogg;codecs=opus", "audio/webm;codecs=opus", "audio/webm", "audio/mp4"];

/** The recorder's state and controls. */
export type AudioRecorder = {
  supported: boolean;
  recording: boolean;
  /** Seconds since the recording started. */
  elapsed: number;
  /** Asks for the microphone and starts; rejects when refused. */
  start: () => Promise<void>;
  /** Stops and answers the recording as a file (null when nothing was recorded). */
  stop: () => Promise<File | null>;
  /** Stops and throws the recording away. */
  cancel: () => void;
};

/** A MediaRecorder-backed recorder; the microphone is released whenever recording ends. */
export function useAudioRecorder(): AudioRecorder {
  const [recording, setRecording] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const chunksRef = useRef<Blob[]>([]);
  const timerRef = useRef<ReturnType<typeof setInterval> | null>(null);
  const supported = typeof window !== "undefined" && typeof MediaRecorder !== "undefined" && !!navigator.mediaDevices?.getUserMedia;

  const release = useCallback(() => {
    if (timerRef.current) clearInterval(timerRef.current);
    timerRef.current = null;
    recorderRef.current?.stream.getTracks().forEach((track) => track.stop());
    recorderRef.current = null;
    setRecording(false);
    setElapsed(0);
  }, []);

  const start = useCallback(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const mimeType = PREFERRED_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    chunksRef.current = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunksRef.current.push(event.data);
    };
    recorder.start(250);
    recorderRef.current = recorder;
    const started = Date.now();
    setElapsed(0);
    setRecording(true);
    timerRef.current = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 500);
  }, []);

  const stop = useCallback(
    () =>
      new Promise<File | null>((resolve) => {
        const recorder = recorderRef.current;
        if (!recorder) {
          resolve(null);
          return;
        }
        recorder.onstop = () => {
          const type = (recorder.mimeType || "audio/webm").split(";")[0] ?? "audio/webm";
          const blob = new Blob(chunksRef.current, { type });
          chunksRef.current = [];
          const extension = type.includes("ogg") ? "ogg" : type.includes("mp4") ? "m4a" : "webm";
          resolve(blob.size > 0 ? new File([blob], `voice-${new Date().toISOString().replace(/[:.]/g, "-")}.${extension}`, { type }) : null);
        };
        recorder.stop();
        release();
      }),
    [release],
  );

  const cancel = useCallback(() => {
    const recorder = recorderRef.current;
    if (recorder) {
      recorder.onstop = null;
      if (recorder.state !== "inactive") recorder.stop();
    }
    chunksRef.current = [];
    release();
  }, [release]);

  useEffect(() => () => cancel(), [cancel]);

  return { supported, recording, elapsed, start, stop, cancel };
}
