-- Routing epochs (issue 16): the ContactSession routes a message on its last read batch and the message's insert checks that none of these counters moved since (schema/routing.ts). Kept by these triggers only. An UPDATE trigger lists the columns routing reads: a column added later to one of these tables must be added here too if routing reads it.
CREATE TABLE `routing_epochs` (
	`scope` text PRIMARY KEY NOT NULL,
	`epoch` integer NOT NULL
);--> statement-breakpoint
CREATE TRIGGER `routing_keywords_ai` AFTER INSERT ON `keywords` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_keywords_au` AFTER UPDATE OF `company_id`, `turn_on`, `rules`, `flow_id`, `created_at` ON `keywords` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || old.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_keywords_ad` AFTER DELETE ON `keywords` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || old.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_operating_hours_ai` AFTER INSERT ON `operating_hours` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_operating_hours_au` AFTER UPDATE ON `operating_hours` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || old.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_operating_hours_ad` AFTER DELETE ON `operating_hours` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || old.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_connection_flows_ai` AFTER INSERT ON `connection_flows` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_connection_flows_au` AFTER UPDATE ON `connection_flows` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || old.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_connection_flows_ad` AFTER DELETE ON `connection_flows` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || old.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_event_subscriptions_ai` AFTER INSERT ON `event_subscriptions` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_event_subscriptions_au` AFTER UPDATE ON `event_subscriptions` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || old.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_event_subscriptions_ad` AFTER DELETE ON `event_subscriptions` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || old.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_connections_ai` AFTER INSERT ON `connections` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_connections_au` AFTER UPDATE OF `company_id`, `name`, `channel`, `phone`, `greeting_message`, `farewell_message`, `status`, `phone_number_id`, `waba_id`, `access_token_enc`, `access_token_hint`, `pairing_secret_hash`, `pairing_code_hash`, `pairing_expires_at`, `device_token_hash`, `display_phone_number`, `verified_name`, `quality_rating` ON `connections` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || old.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_connections_ad` AFTER DELETE ON `connections` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || old.`company_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_companies_au` AFTER UPDATE OF `opt_out_words`, `timezone` ON `companies` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('company:' || new.`id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_contacts_au` AFTER UPDATE OF `company_id`, `name`, `phone`, `email`, `document`, `opted_out_at` ON `contacts` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('contact:' || new.`id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_contacts_ad` AFTER DELETE ON `contacts` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('contact:' || old.`id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_contact_identities_ai` AFTER INSERT ON `contact_identities` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('contact:' || new.`contact_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_contact_identities_au` AFTER UPDATE ON `contact_identities` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('contact:' || old.`contact_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('contact:' || new.`contact_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_contact_identities_ad` AFTER DELETE ON `contact_identities` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('contact:' || old.`contact_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_tickets_ai` AFTER INSERT ON `tickets` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('contact:' || new.`contact_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_tickets_au` AFTER UPDATE OF `company_id`, `contact_id`, `connection_id`, `status` ON `tickets` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('contact:' || old.`contact_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('contact:' || new.`contact_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `routing_tickets_ad` AFTER DELETE ON `tickets` BEGIN INSERT INTO `routing_epochs` (`scope`, `epoch`) VALUES ('contact:' || old.`contact_id`, 1) ON CONFLICT(`scope`) DO UPDATE SET `epoch` = `epoch` + 1; END;
