import express, { Router } from 'express';
import { formsFromThisSite, html, safeUrl, type RunOptions } from '@frontdesk/http';
import type { Customer } from '../auth';
import type { AppContext } from '../context';
import type { BookingOperationSet } from '../operations';
import { getBookPage, getConfirmation, postBookPage } from './book';
import { getHeld, postAnotherTime, postHold } from './held';
import { searchForm } from './find-view';
import { findPage } from './find';
import type { PageDeps } from './page-call';
import { shownOnceSlots } from './shown-once';
import { getUnsubscribePage, postUnsubscribe } from './unsubscribe';
import { getRentalPage, getStopPage, getStoppedPage, postStop } from './rental';
import { getBookingIcs, getCancelPage, getManagePage, getMovePage, postCancel, postMove } from './manage';

/**
 * The customer's pages on the book host: the booking page every business links
 * (`/book/<cleaner>`), the page of one booking (`/manage/<token>`, with its .ics), and a
 * search by ZIP (`/find`). They run the very operations an assistant calls (available_times,
 * book_cleaning, booking_status, cancel_booking, reschedule_booking, find_cleaners) through
 * the same runner (a picked time held with hold_time and release_hold), so the rules, limits and sentences are the API's; a refusal is shown on
 * the page in words.
 */
export function customerPages(ctx: AppContext, ops: BookingOperationSet, run: RunOptions<Customer>): Router {
  const d: PageDeps = { ctx, ops, run, shown: shownOnceSlots(ctx) };
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const router = Router();
  // Browsers ask every host for an icon: an empty answer, not the API's JSON 404.
  router.get('/favicon.ico', (_req, res) => void res.status(204).setHeader('Cache-Control', 'public, max-age=86400').end());
  router.post(['/book/*path', '/manage/*path', '/rental/*path'], formsFromThisSite(ctx.config.publicUrl));
  router.get('/find', findPage(d));
  router.get('/book/:cleaner', getBookPage(d));
  router.post('/book/:cleaner', form, postBookPage(d));
  router.post('/book/:cleaner/hold', form, postHold(d));
  router.post('/book/:cleaner/another-time', form, postAnotherTime(d));
  router.get('/book/:cleaner/held/:hold', getHeld(d));
  router.get('/book/:cleaner/booked/:ref', getConfirmation(d));
  router.get('/manage/:token', getManagePage(d));
  router.get('/manage/:token/cancel', getCancelPage(d));
  router.post('/manage/:token/cancel', form, postCancel(d));
  router.get('/manage/:token/move', getMovePage(d));
  router.post('/manage/:token/move', form, postMove(d));
  router.get('/manage/:token/booking.ics', getBookingIcs(d));
  router.get('/rental/:token', getRentalPage(ctx));
  router.get('/rental/:token/stop', getStopPage(ctx));
  router.post('/rental/:token/stop', form, postStop(ctx));
  router.get('/rental/:token/stopped', getStoppedPage(ctx));
  router.get('/unsubscribe/:token', getUnsubscribePage(ctx));
  router.post('/unsubscribe/:token', form, postUnsubscribe(ctx));
  return router;
}

/** The book host's front door: what it is, a search by ZIP, and where assistants and people go next. */
export function bookFrontDoor(ctx: Pick<AppContext, 'config'>) {
  const url = ctx.config.publicUrl;
  const desk = ctx.config.proDeskUrl;
  return {
    title: 'Find a house cleaner',
    html: html`<p>Book a house cleaner near you at a firm price, here or through your AI assistant.</p>
      ${searchForm({ zip: '' })}
      <h2>For assistants</h2>
      <ul>
        <li>MCP: <code>${url}/mcp</code> (sign in with OAuth, a personal key, or the shared public key)</li>
        <li>REST: <a href="/docs">API reference</a> and <a href="/openapi.json">/openapi.json</a></li>
        <li>A personal key of your own: <a href="${safeUrl(`${desk}/key`)}">${desk}/key</a></li>
      </ul>
      <h2>For cleaning businesses</h2>
      <p><a href="${safeUrl(`${desk}/signup`)}">Sign your business up</a> to be found here.</p>`,
  };
}
