/** The executor registry: one executor per block type (the engine dispatches by `node.type`). */
import type { ExecutorRegistry } from "../runtime";
import {
  actionExecutor,
  conditionExecutor,
  delayExecutor,
  flowConnectionExecutor,
  notificationExecutor,
  randomExecutor,
  receiveExecutor,
  rotaryExecutor,
  saveExecutor,
  startExecutor,
} from "./actions";
import { linkExecutor, listExecutor, numberExecutor } from "./buttons";
import { audioExecutor, contactExecutor, fileExecutor, imageExecutor, ptvExecutor, textExecutor, videoExecutor } from "./content";
import { facebookPixelExecutor, integrationExecutor } from "./integrations";

export const EXECUTORS: ExecutorRegistry = {
  start: startExecutor,
  action: actionExecutor,
  condition: conditionExecutor,
  delay: delayExecutor,
  notification: notificationExecutor,
  random: randomExecutor,
  receive: receiveExecutor,
  rotary: rotaryExecutor,
  save: saveExecutor,
  link: linkExecutor,
  list: listExecutor,
  number: numberExecutor,
  audio: audioExecutor,
  contact: contactExecutor,
  file: fileExecutor,
  image: imageExecutor,
  ptv: ptvExecutor,
  text: textExecutor,
  video: videoExecutor,
  flow_connection: flowConnectionExecutor,
  integration: integrationExecutor,
  facebook_pixel: facebookPixelExecutor,
};
