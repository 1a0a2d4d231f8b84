import express, { Router } from 'express';
import { esc, formsFromThisSite, type RunOptions } from '@frontdesk/http';
import type { Customer } from '../auth';
import type { AppContext } from '../context';
import type { BookingOperationSet } from '../operations';
import { getBookPage, postBookPage } from './book';
import { findPage } from './find';
import { bathroomOptions, bedroomOptions, type PageDeps } from './kit';
import { getBookingIcs, getManagePage, getMovePage, postCancel, postMove } from './manage';

/**
 * The customer's pages on the book host: the booking page every business links
 * (`/book/<cleaner>`), the page of one booking (`/manage/<token>`, with its .ics), and a
 * search by ZIP (`/find`). They run the very operations an assistant calls (available_times,
 * book_cleaning, booking_status, cancel_booking, reschedule_booking, find_cleaners) through
 * the same runner, so the rules, limits and sentences are the API's; a refusal is shown on
 * the page in words.
 */
export function customerPages(ctx: AppContext, ops: BookingOperationSet, run: RunOptions<Customer>): Router {
  const d: PageDeps = { ctx, ops, run };
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const router = Router();
  router.post(['/book/*path', '/manage/*path'], formsFromThisSite(ctx.config.publicUrl));
  router.get('/find', findPage(d));
  router.get('/book/:cleaner', getBookPage(d));
  router.post('/book/:cleaner', form, postBookPage(d));
  router.get('/manage/:token', getManagePage(d));
  router.post('/manage/:token/cancel', form, postCancel(d));
  router.get('/manage/:token/move', getMovePage(d));
  router.post('/manage/:token/move', form, postMove(d));
  router.get('/manage/:token/booking.ics', getBookingIcs(d));
  return router;
}

/** The book host's front door: what it is, a search by ZIP, and where assistants and people go next. */
export function bookFrontDoor(ctx: Pick<AppContext, 'config'>) {
  const url = ctx.config.publicUrl;
  const bedrooms = bedroomOptions('2');
  const bathrooms = bathroomOptions('1');
  return {
    title: 'Find a house cleaner',
    html: `<p>Book a house cleaner near you at a firm price, here or through your AI assistant.</p>
<form method="get" action="/find"><label>Your ZIP code <input name="zip" required inputmode="numeric" pattern="[0-9]{5}" maxlength="5" autocomplete="postal-code"></label>
<label>Bedrooms <select name="bedrooms">${bedrooms}</select></label><label>Bathrooms <select name="bathrooms">${bathrooms}</select></label>
<button type="submit">Find cleaners</button></form>
<h2>For assistants</h2><ul><li>MCP: <code>${esc(url)}/mcp</code> (sign in with OAuth, a personal key, or the shared public key)</li>
<li>REST: <a href="/docs">API reference</a> and <a href="/openapi.json">/openapi.json</a></li>
<li>A personal key of your own: <a href="${esc(ctx.config.proDeskUrl)}/key">${esc(ctx.config.proDeskUrl)}/key</a></li></ul>
<h2>For cleaning businesses</h2><p><a href="${esc(ctx.config.proDeskUrl)}/signup">Sign your business up</a> to be found here.</p>`,
  };
}
