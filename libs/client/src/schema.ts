// Generated from GET /v1/openapi.json by openapi-typescript (npm run openapi:generate). Do not edit.

export type paths = {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["HealthController_health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/changelog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["ChangelogController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/checkout/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Needs the `secrets` permission. */
        get: operations["CheckoutSettingsController_secret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/checkout/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Needs the `secrets` permission. */
        post: operations["CheckoutSettingsController_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/checkout/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CheckoutSessionsController_list"];
        put?: never;
        post: operations["CheckoutSessionsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/checkout/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CheckoutSessionsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/checkout/sessions/{id}/expire": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["CheckoutSessionsController_expire"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/checkout/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["CheckoutSettingsController_get"];
        put: operations["CheckoutSettingsController_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["EventsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["EventsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["InvoicesController_list"];
        put?: never;
        post: operations["InvoicesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["InvoicesController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["InvoicesController_update"];
        trace?: never;
    };
    "/v1/invoices/{id}/finalize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["InvoicesController_finalize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["InvoicesController_void"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/operator/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Needs the `operator.read` permission. */
        get: operations["HealthController_operatorHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PaymentsController_list"];
        put?: never;
        post: operations["PaymentsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PaymentsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["ReceiptsController_chain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Needs the `refunds.write` permission. */
        post: operations["RefundsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["ProductsController_list"];
        put?: never;
        post: operations["ProductsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/products/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["ProductsController_get"];
        put?: never;
        post?: never;
        delete: operations["ProductsController_delete"];
        options?: never;
        head?: never;
        patch: operations["ProductsController_update"];
        trace?: never;
    };
    "/v1/products/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["ProductsController_archive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/products/{id}/settlement-routes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["SettlementAddressesController_routes"];
        /** @description Needs the `settlement.route` permission. */
        put: operations["SettlementAddressesController_putRoutes"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/checkout/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PublicCheckoutController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/checkout/sessions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["PublicCheckoutController_cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/checkout/sessions/{id}/redeem": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["PublicCheckoutController_redeem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/invoices/{publicId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PublicInvoicesController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/invoices/{publicId}/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["PublicInvoicesController_checkout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PaymentsController_getPublic"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/payments/{id}/rail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PaymentsController_getPublicRail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/products/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PaymentLinksController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/products/{slug}/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["PaymentLinksController_checkout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/products/{slug}/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PaymentLinksController_payment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/products/{slug}/payments/{id}/rail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["PaymentLinksController_rail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/receipts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["ReceiptsController_getPublic"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["ReceiptsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/receipts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["ReceiptsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refund-wallets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["RefundsController_wallets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["RefundsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["RefundsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Needs the `refunds.write` permission. */
        post: operations["RefundsController_cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlement-addresses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["SettlementAddressesController_list"];
        put?: never;
        /** @description Needs the `settlement.write` permission. */
        post: operations["SettlementAddressesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlement-addresses/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["SettlementAddressesController_get"];
        put?: never;
        post?: never;
        /** @description Needs the `settlement.write` permission. */
        delete: operations["SettlementAddressesController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlement-addresses/{id}/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Needs the `settlement.route` permission. */
        post: operations["SettlementAddressesController_setDefault"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sweeps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["SweepsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sweeps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["SweepsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sweeps/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Needs the `settlement.route` permission. */
        post: operations["SweepsController_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["WebhooksController_list"];
        put?: never;
        /** @description Needs the `secrets` permission. */
        post: operations["WebhooksController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["WebhooksController_get"];
        put?: never;
        post?: never;
        /** @description Needs the `secrets` permission. */
        delete: operations["WebhooksController_delete"];
        options?: never;
        head?: never;
        patch: operations["WebhooksController_update"];
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["WebhooksController_deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["WebhooksController_delivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Needs the `secrets` permission. */
        post: operations["WebhooksController_redeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Needs the `secrets` permission. */
        post: operations["WebhooksController_rotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["WebhooksController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        AdvanceClockDto: {
            advanceSeconds: number;
        };
        BlockchainTransaction: {
            amount: string;
            blockNumber: string;
            chain: string;
            confirmations: number;
            createdAt: string;
            fromAddress: string;
            id: string;
            logIndex: number;
            merchantId: string;
            /** @enum {string} */
            network: "mainnet" | "testnet";
            paymentId: string;
            status: string;
            toAddress: string;
            tokenAddress: string | null;
            txHash: string;
            updatedAt: string;
        };
        CheckoutSession: {
            amount: string | null;
            chain: string | null;
            completedAt: string | null;
            createdAt: string;
            currency: string | null;
            decimals: number | null;
            expectedAmount: string | null;
            expectedAmountAtomic: string | null;
            expiresAt: string;
            id: string;
            invoiceId: string | null;
            invoiceNumber: string | null;
            late: boolean;
            livemode: boolean;
            locale: string | null;
            merchantId: string;
            metadata: {
                [key: string]: unknown;
            } | null;
            /** @enum {string} */
            network: "mainnet" | "testnet";
            /** @constant */
            object: "checkout.session";
            paymentId: string | null;
            /** @enum {string|null} */
            paymentStatus: "confirmed" | "confirming" | "created" | "detected" | "expired" | "failed" | "overpaid" | "refunded" | "settled" | "underpaid" | "waiting_for_payment" | null;
            productId: string | null;
            productName: string | null;
            productSlug: string | null;
            receivedAmount: string | null;
            receivedAmountAtomic: string | null;
            redeemedAt: string | null;
            reference: string | null;
            referenceOrigin: string;
            sessionId: string;
            /** @enum {string} */
            source: "invoice" | "product";
            /** @enum {string} */
            status: "cancelled" | "completed" | "expired" | "failed" | "open" | "processing";
            token: string | null;
            tokenAddress: string | null;
            txHash: string | null;
            url: string;
        };
        CreateInvoiceDto: {
            /** Format: email */
            customerEmail?: string;
            customerName?: string;
            dueAt?: string;
            lineItems: components["schemas"]["LineItemDto"][];
            memo?: string;
            networks?: components["schemas"]["InvoiceRailDto"][];
        };
        CreatePaymentDto: {
            amount: string;
            chain: string;
            currency: string;
            idempotencyKey?: string;
            metadata?: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            network?: "mainnet" | "testnet";
            token: string;
        };
        CreateProductDto: {
            cancelUrl?: string;
            chain: string;
            description?: string;
            enabledChains?: string[];
            imageUrl?: string;
            /** @enum {string} */
            kind: "one_off";
            maxAmount?: string;
            minAmount?: string;
            name: string;
            /** @enum {string} */
            network?: "mainnet" | "testnet";
            networks?: components["schemas"]["NetworkRowDto"][];
            price?: string;
            /** @enum {string} */
            pricingMode?: "fixed" | "custom_amount";
            successUrl?: string;
            token: string;
        };
        CreateRefundDto: {
            amount?: string;
            reason?: string;
            toAddress?: string;
        };
        CreateSessionDto: {
            amount?: string;
            cancelUrl?: string;
            chain?: string;
            expiredUrl?: string;
            expiresInSeconds?: number;
            failedUrl?: string;
            idempotencyKey?: string;
            invoiceId?: string;
            locale?: string;
            metadata?: {
                [key: string]: unknown;
            };
            pendingUrl?: string;
            productId?: string;
            productSlug?: string;
            reference?: string;
            returnUrl?: string;
            successUrl?: string;
        };
        CreateSettlementAddressDto: {
            address: string;
            chain: string;
            label?: string;
            /** @enum {string} */
            network?: "mainnet" | "testnet";
        };
        CreateWebhookDto: {
            description?: string;
            /** @description Filters: exact event types (checkout.session.completed, checkout.session.expired, checkout.session.cancelled, checkout.session.failed, payment.confirmed, payment.underpaid, payment.overpaid, payment.amount_increased, payment.expired, payment.refunded, payment.flow.step, payment.flow.approved, payment.flow.rejected, settlement.completed, settlement.held, settlement.address_added, settlement.address_activated, receipt.issued, receipt.supplemented, receipt.credit_note.issued, invoice.paid, webhook_endpoint.updated, refund.awaiting_funds) or the wildcards *, payment.*, checkout.*, facilitator.*, payment.flow.*, settlement.*, refund.*, receipt.*. webhook_endpoint.updated reaches every other endpoint of the workspace whatever its filters. */
            eventTypes: string[];
            url: string;
        };
        /** @description Every error, in the shape of the spec: `message` is a string, or an array of strings for field validation. Some refusals add fields (an amount out of bounds adds `minAmount`, `maxAmount`, `currency`; a refund above the maximum adds `maximum`). */
        Error: {
            error: string;
            message: string | string[];
            statusCode: number;
        };
        Invoice: {
            amount: string;
            createdAt: string;
            /** @constant */
            currency: "USD";
            customerEmail: string | null;
            customerName: string | null;
            dueAt: string | null;
            hostedUrl: string;
            id: string;
            lineItems: {
                amount: string;
                description: string;
                quantity: number;
                unitAmount: string;
            }[];
            memo: string | null;
            networks: {
                chain: string;
                token: string;
            }[];
            number: string | null;
            /** @constant */
            object: "invoice";
            paidAt: string | null;
            paymentId: string | null;
            publicId: string;
            sessionId: string | null;
            /** @enum {string} */
            status: "draft" | "open" | "paid" | "void";
            updatedAt: string;
        };
        InvoiceRailDto: {
            chain: string;
            token: string;
        };
        LineItemDto: {
            description: string;
            quantity: number;
            unitAmount: string;
        };
        LinkCheckoutDto: {
            amount?: string;
            chain?: string;
            idempotencyKey?: string;
        };
        NetworkRowDto: {
            chain: string;
            price?: string;
            token: string;
        };
        Payment: {
            amount: string;
            chain: string;
            confirmedAt: string | null;
            createdAt: string;
            currency: string;
            expectedAmount: string;
            expiresAt: string;
            feeAmount: string;
            feeBps: number;
            id: string;
            idempotencyKey: string | null;
            merchantId: string;
            metadata: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            network: "mainnet" | "testnet";
            paymentAddress: string;
            productId: string | null;
            receivedAmount: string;
            /** @enum {string} */
            status: "confirmed" | "confirming" | "created" | "detected" | "expired" | "failed" | "overpaid" | "refunded" | "settled" | "underpaid" | "waiting_for_payment";
            token: string;
            updatedAt: string;
        };
        Product: {
            cancelUrl: string | null;
            chain: string;
            createdAt: string;
            description: string | null;
            enabledChains: string[];
            id: string;
            imageUrl: string | null;
            kind: string;
            maxAmount: string | null;
            merchantId: string;
            minAmount: string | null;
            name: string;
            network: string;
            price: string;
            pricingMode: string;
            slug: string;
            status: string;
            successUrl: string | null;
            token: string;
            updatedAt: string;
        };
        PublicCheckoutSession: {
            amount: string | null;
            branding: {
                accentColor: string | null;
                displayName: string;
                logoUrl: string | null;
                supportEmail: string | null;
                supportUrl: string | null;
            };
            chains: {
                chain: string;
                price: string | null;
                token: string;
            }[];
            completedAt: string | null;
            currency: string | null;
            expiresAt: string;
            id: string;
            invoice: {
                amount: string;
                /** @constant */
                currency: "USD";
                hostedUrl: string;
                lineItems: {
                    amount: string;
                    description: string;
                    quantity: number;
                    unitAmount: string;
                }[];
                number: string | null;
                publicId: string;
            } | null;
            late: boolean;
            locale: string | null;
            /** @enum {string} */
            network: "mainnet" | "testnet";
            /** @constant */
            object: "checkout.session";
            payment: {
                chain: string;
                chainId: number | null;
                chainKind: string | null;
                decimals: number | null;
                expectedAmount: string;
                expectedAmountAtomic: string | null;
                expiresAt: string;
                id: string;
                paymentAddress: string;
                receivedAmount: string;
                /** @enum {string} */
                status: "confirmed" | "confirming" | "created" | "detected" | "expired" | "failed" | "overpaid" | "refunded" | "settled" | "underpaid" | "waiting_for_payment";
                token: string;
                tokenAddress: string | null;
            } | null;
            pinnedChain: string | null;
            product: {
                description: string | null;
                imageUrl: string | null;
                name: string;
                /** @enum {string} */
                pricingMode: "custom_amount" | "fixed";
            } | null;
            redeemedAt: string | null;
            reference?: string | null;
            returnUrl: string | null;
            /** @enum {string} */
            source: "invoice" | "product";
            /** @enum {string} */
            status: "cancelled" | "completed" | "expired" | "failed" | "open" | "processing";
            url: string;
        };
        PublicInvoice: {
            amount: string;
            createdAt: string;
            /** @constant */
            currency: "USD";
            customerName: string | null;
            dueAt: string | null;
            hostedUrl: string;
            id: string;
            lineItems: {
                amount: string;
                description: string;
                quantity: number;
                unitAmount: string;
            }[];
            memo: string | null;
            merchantName: string;
            networks: {
                chain: string;
                token: string;
            }[];
            number: string | null;
            /** @constant */
            object: "invoice";
            paidAt: string | null;
            paymentId: string | null;
            publicId: string;
            receipt: components["schemas"]["PublicReceipt"] | null;
            sessionId: string | null;
            /** @enum {string} */
            status: "draft" | "open" | "paid" | "void";
            updatedAt: string;
        };
        PublicPayment: {
            chain: string;
            confirmedAt: string | null;
            createdAt: string;
            currency: string;
            expectedAmount: string;
            expiresAt: string;
            id: string;
            /** @enum {string} */
            network: "mainnet" | "testnet";
            paymentAddress: string;
            receivedAmount: string;
            /** @enum {string} */
            status: "confirmed" | "confirming" | "created" | "detected" | "expired" | "failed" | "overpaid" | "refunded" | "settled" | "underpaid" | "waiting_for_payment";
            token: string;
            transactions: {
                amount: string;
                confirmations: number;
                createdAt: string;
                id: string;
                status: string;
                txHash: string;
            }[];
        };
        PublicReceipt: {
            amount: string;
            chain: string;
            createdAt: string;
            emailedAt: string | null;
            id: string;
            issuedAt: string;
            /** @enum {string} */
            kind: "credit_note" | "receipt" | "supplement";
            merchantName: string;
            /** @enum {string} */
            network: "mainnet" | "testnet";
            number: string;
            /** @constant */
            object: "receipt";
            paymentId: string;
            refundId: string | null;
            token: string;
            totals: {
                net: string;
                received: string;
                refunded: string;
            };
            transactions: {
                amount: string;
                blockNumber: string;
                logIndex: number;
                txHash: string;
            }[];
            updatedAt: string;
            url: string;
        };
        PutCheckoutSettingsDto: {
            accentColor?: string;
            displayName?: string;
            logoUrl?: string;
            returnOrigins?: string[];
            showReference?: boolean;
            /** Format: email */
            supportEmail?: string;
            supportUrl?: string;
        };
        PutSettlementRoutesDto: {
            routes: components["schemas"]["SettlementRouteDto"][];
        };
        Receipt: {
            amount: string;
            chain: string;
            createdAt: string;
            emailedAt: string | null;
            id: string;
            issuedAt: string;
            /** @enum {string} */
            kind: "credit_note" | "receipt" | "supplement";
            merchantId: string;
            /** @enum {string} */
            network: "mainnet" | "testnet";
            number: string;
            /** @constant */
            object: "receipt";
            paymentId: string;
            reference: string | null;
            refundId: string | null;
            token: string;
            totals: {
                net: string;
                received: string;
                refunded: string;
            };
            transactions: {
                amount: string;
                blockNumber: string;
                logIndex: number;
                txHash: string;
            }[];
            updatedAt: string;
            url: string;
        };
        RedeemSessionDto: {
            chain?: string;
        };
        Refund: {
            amount: string;
            amountAtomic: string;
            chain: string;
            completedAt: string | null;
            createdAt: string;
            creditNoteId: string | null;
            /** @enum {string|null} */
            failureReason: "chain_not_supported" | "destination_unverified" | "fee_balance_low" | "gas_tank_low" | "refund_wallet_low" | "transaction_reverted" | null;
            id: string;
            merchantId: string;
            /** @enum {string} */
            network: "mainnet" | "testnet";
            /** @constant */
            object: "refund";
            paymentId: string;
            reason: string | null;
            /** @enum {string|null} */
            source: "deposit_address" | "refund_wallet" | null;
            /** @enum {string} */
            status: "awaiting_funds" | "cancelled" | "completed" | "failed" | "pending" | "submitted";
            toAddress: string;
            token: string;
            txHash: string | null;
            updatedAt: string;
        };
        SettlementAddress: {
            activatesAt: string;
            address: string;
            chain: string;
            createdAt: string;
            id: string;
            isDefault: boolean;
            label: string | null;
            /** @enum {string} */
            network: "mainnet" | "testnet";
            /** @constant */
            object: "settlement_address";
            /** @enum {string} */
            status: "active" | "pending" | "retired";
            updatedAt: string;
        };
        SettlementRouteDto: {
            chain: string;
            /** @enum {string} */
            network?: "mainnet" | "testnet";
            settlementAddressId: string;
        };
        Sweep: {
            amount: string;
            amountAtomic: string;
            chain: string;
            completedAt: string | null;
            createdAt: string;
            fromAddress: string;
            id: string;
            merchantId: string;
            /** @enum {string} */
            network: "mainnet" | "testnet";
            /** @constant */
            object: "sweep";
            paymentId: string;
            /** @enum {string} */
            payoutState: "cancelled" | "completed" | "failed" | "held" | "manual_required" | "pending" | "submitted";
            /** @enum {string|null} */
            reason: "deposit_balance_low" | "destination_unverified" | "fee_above_cap" | "gas_tank_low" | "native_sui" | "no_settlement_address" | "no_sweep_support" | "nothing_owed" | "refund_in_progress" | "reverted" | "transaction_reverted" | null;
            requiresManualPayout: boolean;
            sequence: number;
            settlementAddressId: string | null;
            toAddress: string | null;
            token: string;
            tokenAddress: string | null;
            txHash: string | null;
            updatedAt: string;
        };
        TestWebhookDto: {
            /**
             * @description An event type (default checkout.session.completed).
             * @enum {string}
             */
            eventType?: "checkout.session.completed" | "checkout.session.expired" | "checkout.session.cancelled" | "checkout.session.failed" | "payment.confirmed" | "payment.underpaid" | "payment.overpaid" | "payment.amount_increased" | "payment.expired" | "payment.refunded" | "payment.flow.step" | "payment.flow.approved" | "payment.flow.rejected" | "settlement.completed" | "settlement.held" | "settlement.address_added" | "settlement.address_activated" | "receipt.issued" | "receipt.supplemented" | "receipt.credit_note.issued" | "invoice.paid" | "webhook_endpoint.updated" | "refund.awaiting_funds";
        };
        UpdateInvoiceDto: {
            /** Format: email */
            customerEmail?: string;
            customerName?: string;
            dueAt?: string;
            lineItems?: components["schemas"]["LineItemDto"][];
            memo?: string;
            networks?: components["schemas"]["InvoiceRailDto"][];
        };
        UpdateProductDto: {
            cancelUrl?: string;
            chain: unknown;
            description?: string;
            enabledChains?: string[];
            imageUrl?: string;
            kind: unknown;
            maxAmount?: string;
            minAmount?: string;
            name?: string;
            network: unknown;
            networks?: components["schemas"]["NetworkRowDto"][];
            price: unknown;
            pricingMode: unknown;
            slug: unknown;
            /** @enum {string} */
            status?: "active" | "archived";
            successUrl?: string;
            token: unknown;
        };
        UpdateWebhookDto: {
            description?: string;
            enabled?: boolean;
            /** @description Filters: exact event types (checkout.session.completed, checkout.session.expired, checkout.session.cancelled, checkout.session.failed, payment.confirmed, payment.underpaid, payment.overpaid, payment.amount_increased, payment.expired, payment.refunded, payment.flow.step, payment.flow.approved, payment.flow.rejected, settlement.completed, settlement.held, settlement.address_added, settlement.address_activated, receipt.issued, receipt.supplemented, receipt.credit_note.issued, invoice.paid, webhook_endpoint.updated, refund.awaiting_funds) or the wildcards *, payment.*, checkout.*, facilitator.*, payment.flow.*, settlement.*, refund.*, receipt.*. webhook_endpoint.updated reaches every other endpoint of the workspace whatever its filters. Changing them, or url, needs the secrets permission. */
            eventTypes?: string[];
            url?: string;
        };
        WebhookDelivery: {
            attemptCount: number;
            attempts: {
                attempt: number;
                attemptedAt: string;
                durationMs: number;
                error: string | null;
                responseStatus: number | null;
            }[];
            createdAt: string;
            endpointId: string;
            eventId: string;
            eventType: string;
            id: string;
            lastAttemptAt: string | null;
            lastError: string | null;
            lastResponseStatus: number | null;
            nextAttemptAt: string | null;
            /** @constant */
            object: "webhook_delivery";
            /** @enum {string} */
            status: "failed" | "pending" | "succeeded";
            test: boolean;
            updatedAt: string;
        };
        WebhookEndpoint: {
            createdAt: string;
            description: string | null;
            enabled: boolean;
            eventTypes: string[];
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            secret?: string;
            updatedAt: string;
            url: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    HealthController_health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ChangelogController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            breaking: boolean;
                            changes: string[];
                            date: string;
                            migrationGuide: string | null;
                            title: string;
                            url: string;
                        }[];
                        generatedAt: string;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    CheckoutSettingsController_secret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checkoutSecret: string;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    CheckoutSettingsController_rotate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checkoutSecret: string;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    CheckoutSessionsController_list: {
        parameters: {
            query?: {
                createdAfter?: string;
                cursor?: string;
                limit?: string;
                productId?: string;
                reference?: string;
                status?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CheckoutSession"][];
                        hasMore: boolean;
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    CheckoutSessionsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSessionDto"];
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutSession"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    CheckoutSessionsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutSession"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    CheckoutSessionsController_expire: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutSession"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    CheckoutSettingsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accentColor: string | null;
                        checkoutSecretSet: boolean;
                        displayName: string | null;
                        logoUrl: string | null;
                        returnOrigins: string[];
                        showReference: boolean;
                        supportEmail: string | null;
                        supportUrl: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    CheckoutSettingsController_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutCheckoutSettingsDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accentColor: string | null;
                        checkoutSecretSet: boolean;
                        displayName: string | null;
                        logoUrl: string | null;
                        returnOrigins: string[];
                        showReference: boolean;
                        supportEmail: string | null;
                        supportUrl: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    EventsController_list: {
        parameters: {
            query?: {
                createdAfter?: string;
                cursor?: string;
                limit?: string;
                tail?: string;
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            data: unknown;
                            id: string;
                            type: string;
                        }[];
                        hasMore: boolean;
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    EventsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        data: unknown;
                        id: string;
                        type: string;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    InvoicesController_list: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Invoice"][];
                        hasMore: boolean;
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    InvoicesController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvoiceDto"];
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    InvoicesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    InvoicesController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateInvoiceDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    InvoicesController_finalize: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    InvoicesController_void: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    HealthController_operatorHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PaymentsController_list: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: string;
                network?: string;
                status?: string;
                updatedAfter?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        amount: string;
                        blockchainTransactions: components["schemas"]["BlockchainTransaction"][];
                        chain: string;
                        checkoutSession: {
                            id: string;
                            metadata: {
                                [key: string]: unknown;
                            } | null;
                            reference: string | null;
                        } | null;
                        confirmedAt: string | null;
                        createdAt: string;
                        currency: string;
                        expectedAmount: string;
                        expiresAt: string;
                        feeAmount: string;
                        feeBps: number;
                        id: string;
                        idempotencyKey: string | null;
                        merchantId: string;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        network: "mainnet" | "testnet";
                        paymentAddress: string;
                        productId: string | null;
                        receivedAmount: string;
                        /** @enum {string} */
                        status: "confirmed" | "confirming" | "created" | "detected" | "expired" | "failed" | "overpaid" | "refunded" | "settled" | "underpaid" | "waiting_for_payment";
                        token: string;
                        updatedAt: string;
                    }[] | {
                        data: {
                            amount: string;
                            blockchainTransactions: components["schemas"]["BlockchainTransaction"][];
                            chain: string;
                            checkoutSession: {
                                id: string;
                                metadata: {
                                    [key: string]: unknown;
                                } | null;
                                reference: string | null;
                            } | null;
                            confirmedAt: string | null;
                            createdAt: string;
                            currency: string;
                            expectedAmount: string;
                            expiresAt: string;
                            feeAmount: string;
                            feeBps: number;
                            id: string;
                            idempotencyKey: string | null;
                            merchantId: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            network: "mainnet" | "testnet";
                            paymentAddress: string;
                            productId: string | null;
                            receivedAmount: string;
                            /** @enum {string} */
                            status: "confirmed" | "confirming" | "created" | "detected" | "expired" | "failed" | "overpaid" | "refunded" | "settled" | "underpaid" | "waiting_for_payment";
                            token: string;
                            updatedAt: string;
                        }[];
                        hasMore: boolean;
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PaymentsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePaymentDto"];
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PaymentsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        amount: string;
                        blockchainTransactions: components["schemas"]["BlockchainTransaction"][];
                        chain: string;
                        checkoutSession: {
                            id: string;
                            metadata: {
                                [key: string]: unknown;
                            } | null;
                            reference: string | null;
                        } | null;
                        confirmedAt: string | null;
                        createdAt: string;
                        currency: string;
                        expectedAmount: string;
                        expiresAt: string;
                        feeAmount: string;
                        feeBps: number;
                        id: string;
                        idempotencyKey: string | null;
                        merchantId: string;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        network: "mainnet" | "testnet";
                        paymentAddress: string;
                        productId: string | null;
                        receivedAmount: string;
                        /** @enum {string} */
                        status: "confirmed" | "confirming" | "created" | "detected" | "expired" | "failed" | "overpaid" | "refunded" | "settled" | "underpaid" | "waiting_for_payment";
                        token: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ReceiptsController_chain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        documents: components["schemas"]["Receipt"][];
                        net: string;
                        paymentId: string;
                        received: string;
                        refunded: string;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    RefundsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key with the same request answers the same object; another request with it is a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRefundDto"];
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ProductsController_list: {
        parameters: {
            query?: {
                status?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown[];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ProductsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProductDto"];
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ProductsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ProductsController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        id: string;
                        /** @constant */
                        object: "product";
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ProductsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateProductDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ProductsController_archive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    SettlementAddressesController_routes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        productId: string;
                        routes: {
                            chain: string;
                            /** @enum {string} */
                            network: "mainnet" | "testnet";
                            settlementAddressId: string;
                        }[];
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    SettlementAddressesController_putRoutes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutSettlementRoutesDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        productId: string;
                        routes: {
                            chain: string;
                            /** @enum {string} */
                            network: "mainnet" | "testnet";
                            settlementAddressId: string;
                        }[];
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PublicCheckoutController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicCheckoutSession"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PublicCheckoutController_cancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicCheckoutSession"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PublicCheckoutController_redeem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RedeemSessionDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicCheckoutSession"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PublicInvoicesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                publicId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        amount: string;
                        branding: unknown;
                        createdAt: string;
                        /** @constant */
                        currency: "USD";
                        customerName: string | null;
                        dueAt: string | null;
                        hostedUrl: string;
                        id: string;
                        lineItems: {
                            amount: string;
                            description: string;
                            quantity: number;
                            unitAmount: string;
                        }[];
                        memo: string | null;
                        merchantName: string;
                        networks: {
                            chain: string;
                            token: string;
                        }[];
                        number: string | null;
                        /** @constant */
                        object: "invoice";
                        paidAt: string | null;
                        paymentId: string | null;
                        publicId: string;
                        receipt: components["schemas"]["PublicReceipt"] | null;
                        sessionId: string | null;
                        /** @enum {string} */
                        status: "draft" | "open" | "paid" | "void";
                        updatedAt: string;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PublicInvoicesController_checkout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                publicId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sessionId: string;
                        url: string;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PaymentsController_getPublic: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicPayment"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PaymentsController_getPublicRail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        chain: string;
                        chainId: number | null;
                        chainKind: string | null;
                        decimals: number | null;
                        expectedAmountAtomic: string | null;
                        id: string;
                        /** @enum {string} */
                        network: "mainnet" | "testnet";
                        token: string;
                        tokenAddress: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PaymentLinksController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        branding: unknown;
                        chain: string;
                        currency: string | null;
                        description: string | null;
                        id: string;
                        imageUrl: string | null;
                        /** @enum {string} */
                        kind: "one_off" | "subscription";
                        maxAmount: string | null;
                        minAmount: string | null;
                        name: string;
                        /** @enum {string} */
                        network: "mainnet" | "testnet";
                        networks: {
                            chain: string;
                            price: string | null;
                            token: string;
                        }[];
                        price: string | null;
                        /** @enum {string} */
                        pricingMode: "custom_amount" | "fixed";
                        slug: string;
                        token: string;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PaymentLinksController_checkout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkCheckoutDto"];
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        kind: string;
                        payment: components["schemas"]["PublicPayment"];
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PaymentLinksController_payment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicPayment"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    PaymentLinksController_rail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        chain: string;
                        chainId: number | null;
                        chainKind: string | null;
                        decimals: number | null;
                        expectedAmountAtomic: string | null;
                        id: string;
                        /** @enum {string} */
                        network: "mainnet" | "testnet";
                        token: string;
                        tokenAddress: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ReceiptsController_getPublic: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        amount: string;
                        branding: {
                            accentColor: string | null;
                            displayName: string;
                            logoUrl: string | null;
                            supportEmail: string | null;
                            supportUrl: string | null;
                        };
                        chain: string;
                        createdAt: string;
                        emailedAt: string | null;
                        id: string;
                        issuedAt: string;
                        /** @enum {string} */
                        kind: "credit_note" | "receipt" | "supplement";
                        merchantName: string;
                        /** @enum {string} */
                        network: "mainnet" | "testnet";
                        number: string;
                        /** @constant */
                        object: "receipt";
                        paymentId: string;
                        reference?: string | null;
                        refundId: string | null;
                        token: string;
                        totals: {
                            net: string;
                            received: string;
                            refunded: string;
                        };
                        transactions: {
                            amount: string;
                            blockNumber: string;
                            logIndex: number;
                            txHash: string;
                        }[];
                        updatedAt: string;
                        url: string;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; wait `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "error": "Too Many Requests",
                     *       "message": "Too many requests: try again in 12 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ReceiptsController_list: {
        parameters: {
            query?: {
                cursor?: string;
                kind?: string;
                limit?: string;
                updatedAfter?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Receipt"][];
                        hasMore: boolean;
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ReceiptsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Receipt"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    RefundsController_wallets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        address: string;
                        balances: {
                            amount: string | null;
                            token: string;
                        }[];
                        chain: string;
                        /** @enum {string} */
                        network: "mainnet" | "testnet";
                    }[];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    RefundsController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"][];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    RefundsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    RefundsController_cancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    SettlementAddressesController_list: {
        parameters: {
            query?: {
                chain?: string;
                network?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementAddress"][];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    SettlementAddressesController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSettlementAddressDto"];
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementAddress"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    SettlementAddressesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementAddress"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    SettlementAddressesController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementAddress"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    SettlementAddressesController_setDefault: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementAddress"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    SweepsController_list: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: string;
                network?: string;
                paymentId?: string;
                status?: string;
                updatedAfter?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Sweep"][];
                        hasMore: boolean;
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    SweepsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Sweep"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    SweepsController_retry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Sweep"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    WebhooksController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"][];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    WebhooksController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookDto"];
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    WebhooksController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    WebhooksController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        id: string;
                        /** @constant */
                        object: "webhook_endpoint";
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    WebhooksController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    WebhooksController_deliveries: {
        parameters: {
            query?: {
                cursor?: string;
                eventId?: string;
                limit?: string;
                status?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        hasMore: boolean;
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    WebhooksController_delivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    WebhooksController_redeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    WebhooksController_rotateSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    WebhooksController_test: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestWebhookDto"];
            };
        };
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description The request is malformed or breaks a rule; `message` names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "error": "Bad Request",
                     *       "message": "amount 0.5 is below the minimum of 1 USD."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key, or an unknown or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "error": "Unauthorized",
                     *       "message": "Missing API key: send it in the x-api-key header."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key's role lacks the permission this route needs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "error": "Forbidden",
                     *       "message": "This API key (role developer) lacks the permission refunds.write."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object in this workspace (another workspace's objects are not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "error": "Not Found",
                     *       "message": "No such payment: 3f0c2a8e-6b1d-4c5e-9f7a-2d4b6c8e0a1b."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The object is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "error": "Conflict",
                     *       "message": "Only confirmed or overpaid payments can be refunded; this payment is underpaid."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
