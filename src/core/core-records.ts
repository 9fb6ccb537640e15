/** The records the core's port exchanges: kept in store/ (the store writes and reads them too), named here for the port's users. */
export type { CoreCancellation, CoreReport, CoreReportPage, PaymentOrder } from '../store/core-records.js';
