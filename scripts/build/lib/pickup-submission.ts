/**
 * A P1 pickup submission to the sandbox carrier, unique by `serial`, its webhooks sent to
 * `webhookUrl`: the bench's and the soak's request alike.
 */
/** The date `days` after today's (UTC), YYYY-MM-DD: the service refuses a pickup window that has ended. */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export function pickupSubmission(label: string, serial: string, webhookUrl: string) {
  const address = { postal_code: "10115", country_code: "DE", city: "Berlin", address_1: "Invalidenstr. 1" };
  return {
    request_id: `${label}-${serial}`,
    service_code: "sandbox",
    authorize_id: label,
    sender_address: address,
    loading_address: address,
    consignee_address: address,
    reference_order_number: `${label.toUpperCase()}-${serial}`,
    loading_time: { start_date: dayFromToday(1), start_time: "09:00", end_date: dayFromToday(1), end_time: "12:00" },
    delivery_time: { start_date: dayFromToday(2), start_time: "09:00", end_date: dayFromToday(3), end_time: "18:00" },
    item_lines: [{ weight: 1, length: 10, width: 10, height: 10, declare_name: "Books", weight_class: "kg", length_class: "cm" }],
    webhook_url: webhookUrl,
    sign_string: label,
  };
}
