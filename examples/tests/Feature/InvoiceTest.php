<?php

test('an invoice total is shown in cents', function () {
    $invoice = Invoice::factory()->create(['total_cents' => 1999]);

    $this->get(route('invoices.show', $invoice))->assertJson(['data' => ['total_cents' => 1999]]);
});
