import {
  addPropertyInput,
  answer,
  bool,
  fields,
  idSchema,
  int,
  listOf,
  propertyAddedMessage,
  propertyChangeSchemas,
  propertyRemovedMessage,
  propertySchema,
  propertySyncedMessage,
  propertyUpdatedMessage,
  str,
} from '@frontdesk/domain';
import { addProperty, listProperties, removeProperty, syncProperty, updateProperty, type FeedReader } from '@frontdesk/use-cases';
import { OVERWRITES, READS, REMOVES, WRITES } from '@frontdesk/http';
import { createFeedReader } from '@frontdesk/workers';
import { hostMailOf, type AppContext } from '../context';
import { rulesOf } from './webhooks';
import { defineOperation } from './define';

const propertyId = idSchema('From list_properties.');
const withMessage = answer({ ...propertySchema.properties, message: str });

export const addPropertyOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'add_property',
    tag: 'properties',
    title: 'Add a rental',
    description: "A host's rental: each stay in its calendars gets a turnover clean, no fee. Confirm first.",
    method: 'POST',
    input: addPropertyInput,
    output: withMessage,
    ...WRITES,
    async handler(input, { principal: pro, now }) {
      const shown = await addProperty(ctx.db, pro, input, now);
      return { ...shown, message: propertyAddedMessage(shown.name, shown.feeds.length) };
    },
  });

export const updatePropertyOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'update_property',
    tag: 'properties',
    title: 'Change a rental',
    description: "Changes any of add_property's fields sent with property_id; the rest stays. Confirm first.",
    method: 'POST',
    input: fields({ property_id: propertyId, ...propertyChangeSchemas }, ['property_id']),
    toolFields: ['property_id'],
    output: withMessage,
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal: pro, now }) {
      const shown = await updateProperty(ctx.db, pro, input, now);
      return { ...shown, message: propertyUpdatedMessage(shown.name) };
    },
  });

export const removePropertyOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'remove_property',
    tag: 'properties',
    title: 'Remove a rental',
    description: 'Refused while cleans are upcoming unless cancel_turnovers (host NOT messaged). Confirm first.',
    method: 'POST',
    input: fields({ property_id: propertyId, cancel_turnovers: bool }, ['property_id']),
    output: answer({ property_id: str, removed: bool, turnovers_cancelled: int, message: str }),
    ...REMOVES,
    async handler(input, { principal: pro, now }) {
      const { property, cancelled } = await removeProperty(ctx.db, pro, input, now);
      return { property_id: property.id, removed: true, turnovers_cancelled: cancelled, message: propertyRemovedMessage(property.name, cancelled) };
    },
  });

export const listPropertiesOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'list_properties',
    tag: 'properties',
    title: 'List rentals',
    description: "Rentals, their calendars' last reads, upcoming stays and cleans.",
    method: 'GET',
    input: fields({ property_id: propertyId }),
    output: answer({ properties: listOf(propertySchema) }),
    ...READS,
    async handler(input, { principal: pro, now }) {
      return { properties: await listProperties(ctx.db, pro, now, input.property_id) };
    },
  });

export const syncPropertyOperation = (ctx: AppContext) => {
  let reader: FeedReader | undefined;
  return defineOperation({
    name: 'sync_property',
    tag: 'properties',
    title: 'Read calendars now',
    description: 'Reads its calendars now; a failing one cancels nothing.',
    method: 'POST',
    input: fields({ property_id: propertyId }, ['property_id']),
    output: withMessage,
    ...WRITES,
    idempotent: true,
    openWorld: true,
    async handler(input, { principal: pro, now }) {
      reader ??= createFeedReader({ allowLoopback: rulesOf(ctx).hostIsHttp });
      const host = hostMailOf(ctx.config);
      await syncProperty(ctx.db, { pro, propertyId: input.property_id, reader, host, now });
      const [shown] = await listProperties(ctx.db, pro, now, input.property_id);
      return { ...shown!, message: propertySyncedMessage(shown!.name, shown!.feeds.filter((f) => f.outcome === 'failing').length) };
    },
  });
};
